//! Cribbage Solitaire behind the [`Game`] interface: a table read from the screen, solved exactly from the
//! position shown, and played by clicking a column's front card or NEXT STACK.

use std::time::Duration;

use anyhow::{bail, Context, Result};
use image::RgbaImage;

use super::reader::{read, TablePoints};
use super::theme::TableTheme;
use super::state_text;
use crate::capture::Settle;
use crate::game::{Action, CellLayout, Game, Plan, Reading, SolveLimits};
use crate::games::cribbage::{commands::parse_state, rules::parse_line, solve, Move, State};

/// Cribbage Solitaire with the calibration themes its reader may use.
pub struct Cribbage {
    pub themes: Vec<TableTheme>,
}

/// A position on a table, and where its cards and button are when it was read from a picture. Two tables are
/// equal when their columns and stacks are (the picture does not show the score; the play loop carries the
/// engine's).
#[derive(Clone, Debug)]
pub struct Table {
    pub state: State,
    pub points: Option<TablePoints>,
}

impl PartialEq for Table {
    fn eq(&self, other: &Table) -> bool {
        self.state.columns == other.state.columns && self.state.stack == other.state.stack
    }
}

impl std::fmt::Display for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "{}score: {}", state_text(&self.state), self.state.score)
    }
}

/// The score in a table's window title ("Cribbage Solitaire — deal 30 — score 42"), if it shows one.
pub fn title_score(title: &str) -> Option<u32> {
    let rest = &title[title.find("score ")? + "score ".len()..];
    rest.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
}

impl Game for Cribbage {
    type Board = Table;
    type Move = Move;

    fn name(&self) -> &'static str {
        "cribbage"
    }

    fn window_titles(&self) -> &'static [&'static str] {
        &["Cribbage Solitaire"]
    }

    /// The browser draws a click's result in its next frame; nothing animates.
    fn settle(&self) -> Settle {
        Settle {
            interval: Duration::from_millis(10),
            quiet: Duration::from_millis(40),
            after_click: Duration::from_millis(20),
            ..Settle::default()
        }
    }

    fn parse_board(&self, text: &str) -> Result<Table> {
        Ok(Table { state: parse_state(text)?, points: None })
    }

    fn read(&self, image: &RgbaImage, _hint: Option<&CellLayout>) -> Result<Reading<Table>> {
        let reading = read(image, &self.themes)?;
        let p = &reading.points;
        let layout = CellLayout { rows: 1, cols: 4, origin_x: 0.0, origin_y: 0.0, pitch: p.card_width as f64 };
        Ok(Reading { board: Table { state: reading.state, points: Some(reading.points) }, layout, theme: reading.theme })
    }

    /// The best line from the position shown (exact).
    fn solve(&self, board: &Table, _limits: &SolveLimits) -> Result<Plan<Move>> {
        let solution = solve(&board.state);
        let moves = parse_line(&solution.line).context("the solver's line")?;
        Ok(Plan { moves, optimal: true, nodes: solution.nodes })
    }

    fn actions(&self, reading: &Reading<Table>, mv: &Move) -> Result<Vec<Action>> {
        let points = reading.board.points.as_ref().context("this board was not read from a picture")?;
        let (x, y) = match *mv {
            Move::Play(c) => *points.cards[c].last().with_context(|| format!("column {} is empty", c + 1))?,
            Move::NewStack => points.next_stack,
        };
        Ok(vec![Action::Click { x, y }])
    }

    /// The move by the rules; the played card's point goes with it (the card before it is the front now).
    fn apply(&self, board: &Table, mv: &Move) -> Table {
        let mut state = board.state.clone();
        let mut points = board.points.clone();
        if state.play(*mv).is_ok() {
            if let (Move::Play(c), Some(points)) = (mv, points.as_mut()) {
                points.cards[*c].pop();
            }
        }
        Table { state, points }
    }

    fn is_won(&self, board: &Table) -> bool {
        board.state.is_over()
    }

    fn confirmed(&self, expected: &Table, seen: Table) -> Table {
        Table { state: State { score: expected.state.score, ..seen.state }, points: seen.points }
    }

    /// The score so far is the title's (the picture does not show it to the reader).
    fn adopt_title(&self, board: Table, title: &str) -> Table {
        let score = title_score(title).unwrap_or(board.state.score);
        Table { state: State { score, ..board.state }, points: board.points }
    }

    fn check_title(&self, board: &Table, title: &str) -> Result<()> {
        match title_score(title) {
            Some(shown) if shown != board.state.score => {
                bail!("the table's title says score {shown} but the rules engine counts {} (title '{title}')", board.state.score)
            }
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_score_is_read_from_the_title_when_it_shows_one() {
        assert_eq!(title_score("Cribbage Solitaire \u{2014} deal 30 \u{2014} score 42"), Some(42));
        assert_eq!(title_score("Cribbage Solitaire \u{2014} deal 30 \u{2014} score 109 \u{2014} complete"), Some(109));
        assert_eq!(title_score("Cribbage Solitaire"), None);
    }

    #[test]
    fn the_first_read_score_is_the_titles_and_moves_follow_the_rules() {
        let game = Cribbage { themes: Vec::new() };
        let start = game.parse_board("A23_4_5_6\nstack: K\nscore: 3\n").unwrap();
        let next = game.apply(&start, &Move::Play(0));
        assert_eq!(next.state.stack.len(), 2);
        assert!(game.check_title(&start, "Cribbage Solitaire \u{2014} deal 1 \u{2014} score 3").is_ok());
        assert!(game.check_title(&start, "Cribbage Solitaire \u{2014} deal 1 \u{2014} score 5").is_err());
        // A played card's click point goes with it; NEXT STACK's stays.
        let points = TablePoints { cards: [vec![(5, 10), (5, 20), (5, 30)], vec![(9, 10)], vec![], vec![]], next_stack: (50, 5), card_width: 8 };
        let read = Table { state: start.state.clone(), points: Some(points) };
        let after = game.apply(&read, &Move::Play(0));
        assert_eq!(after.points.as_ref().unwrap().cards[0], vec![(5, 10), (5, 20)]);
        assert_eq!(game.apply(&read, &Move::NewStack).points, read.points, "an illegal move changes nothing");
        // The picture shows no score: the confirmed board keeps the engine's.
        let seen = Table { state: State { score: 0, ..next.state.clone() }, points: None };
        assert_eq!(game.confirmed(&next, seen).state.score, next.state.score);
    }
}
