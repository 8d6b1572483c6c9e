//! Cribbage Solitaire on the screen: a table read from a picture (the columns, the stack, where to click) with
//! calibrated rank glyphs ([`reader`], [`theme`]), the score from the window title or the table's printed text
//! where the client shows it, and moves played by clicking a column's playable card or the control that ends a
//! stack ([`actions`]). What a table does not show (the score, a stack with no pile or row) the bot keeps from the
//! moves it made; a table that ends stacks by itself is played without asking for them.

pub mod actions;
pub mod by_shape;
pub mod naming;
pub mod reader;
pub mod reading;
pub mod stack_end;
pub mod theme;

use std::path::Path;
use std::time::Duration;

use anyhow::{anyhow, Context, Result};
use image::RgbaImage;

pub use reader::read;
pub use reading::{TablePoints, TableReading};
pub use theme::{load_themes, TableTheme};

use crate::calibration::{theme_to_refresh, ThemeTarget};
use crate::capture::{Frame, Settle};
use crate::clients::{no_way_read, Cause};
use crate::game::{Answer, Client, Game, Layout, Learned, Marks, MoveEvents, OnlyWay, Reading, Screen, Shown};
use crate::games::cribbage::table::{state_text, Cribbage, Table};
use crate::games::cribbage::{Deal, Move, State};
use crate::vision::printed_number::NumberReader;
use stack_end::{Offered, StackEnding};

/// The score in a table's window title, after `word` as the table's theme learned it ("score" in "Cribbage
/// Solitaire — deal 30 — score 42"), if the title shows one: the word (in any case, as a whole word), then
/// spaces or a colon, then the number.
pub fn title_score(title: &str, word: &str) -> Option<u32> {
    let lower = title.to_lowercase();
    let word = word.to_lowercase();
    lower.match_indices(&word).find_map(|(at, _)| {
        let whole_word = !lower[..at].chars().next_back().is_some_and(char::is_alphanumeric);
        let rest = lower[at + word.len()..].trim_start_matches([' ', ':']);
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        if whole_word {
            digits.parse().ok()
        } else {
            None
        }
    })
}

/// The word a title puts before the score `score` (`title_score` reads it back): the title must show the score
/// as a number once, after a word. An error says why not.
pub fn learn_score_word(title: &str, score: u32) -> Result<String> {
    // Each run of digits, with where it starts.
    let mut numbers: Vec<(usize, String)> = Vec::new();
    let mut previous_digit = false;
    for (at, c) in title.char_indices() {
        match (c.is_ascii_digit(), previous_digit) {
            (true, true) => numbers.last_mut().expect("a run is open").1.push(c),
            (true, false) => numbers.push((at, c.to_string())),
            _ => {}
        }
        previous_digit = c.is_ascii_digit();
    }
    let shown: Vec<usize> = numbers.iter().filter(|(_, n)| n.parse() == Ok(score)).map(|(at, _)| *at).collect();
    let at = match shown.as_slice() {
        [at] => *at,
        [] => anyhow::bail!("the title '{title}' does not show the score {score}"),
        _ => anyhow::bail!("the title '{title}' shows {score} more than once: calibrate from a shot whose score differs from the title's other numbers"),
    };
    let before = title[..at].trim_end_matches([' ', ':']);
    let word: Vec<char> = before.chars().rev().take_while(|c| c.is_alphabetic()).collect();
    if word.is_empty() {
        anyhow::bail!("the title '{title}' shows the score {score} after no word");
    }
    Ok(word.into_iter().rev().collect::<String>().to_lowercase())
}

/// Reads a table with the first calibration theme that reads it ([`reader`]), else with none ([`by_shape`]), where
/// the fonts for that are at hand (`shapes`, else why not). `hint` is the previous reading's places.
pub fn read_any(
    image: &RgbaImage,
    themes: &[TableTheme],
    numbers: Option<&NumberReader>,
    shapes: Result<&by_shape::RankShapes, &String>,
    hint: Option<&TablePoints>,
) -> Result<TableReading> {
    let themed_error = if themes.is_empty() {
        None
    } else {
        match reader::read_with_numbers(image, themes, numbers) {
            Ok(reading) => return Ok(reading),
            Err(e) => Some(e),
        }
    };
    let found = match shapes {
        Ok(shapes) => by_shape::read(image, shapes, hint),
        Err(why) => {
            Err(anyhow!("no calibration theme reads it, and the fonts to read it without one are missing: {why}"))
        }
    };
    // The search's failure is the cause: a table no theme was made for is the usual case.
    found.map_err(|found_error| no_way_read("Cribbage Solitaire", themed_error, found_error, Cause::Search))
}

impl Layout for TablePoints {
    /// Each card's corner point and the NEXT STACK button.
    fn marks(&self) -> Marks {
        let mut points: Vec<(i32, i32)> = self.cards.iter().flatten().copied().collect();
        points.extend(self.next_stack);
        Marks { boxes: Vec::new(), points }
    }
}

/// Cribbage Solitaire as its pictures show it: the calibration themes its reader may use, the digits of the
/// common fonts for numbers a table prints as text (none where the font list is missing), and the rank marks of
/// the common fonts for tables read with no calibration (else why they are missing).
pub struct CribbageScreen {
    pub themes: Vec<TableTheme>,
    pub numbers: Option<NumberReader>,
    pub rank_shapes: std::result::Result<by_shape::RankShapes, String>,
}

/// One window of Cribbage Solitaire. What the table does not show (the score, a stack with no pile) the loop
/// carries over from the moves it made ([`Shown::Read`]), so the client keeps nothing else.
pub struct CribbageClient {
    screen: CribbageScreen,
    /// The numbers the last picture printed off the cards (see [`TableReading::numbers`]).
    numbers: Vec<((i32, i32), u32)>,
    /// Where the table prints its stack total, learned in play: the one printed number that showed the rules'
    /// total (not 0) after a card was played. From then on a total of 0 there shows the stack empty.
    total_at: Option<(i32, i32)>,
    /// How the table ends a stack where it shows no control for it ([`stack_end`]).
    stack_ending: StackEnding,
}

impl Screen for CribbageScreen {
    type Client = CribbageClient;
    /// The position shown, and where the control that ends a stack is if the picture does not show it plainly.
    type Truth = reader::TableTruth;
    const DEFAULT_THEME: &'static str = "table";
    const WINDOW_TITLES: &'static [&'static str] = &["Cribbage Solitaire"];

    fn load(root: &Path, theme: Option<&str>) -> Result<Self> {
        Ok(CribbageScreen {
            themes: crate::calibration::load_theme_files_or_none(root, "cribbage", theme)?,
            numbers: NumberReader::load(root).ok(),
            rank_shapes: by_shape::RankShapes::load(root).map_err(|e| format!("{e:#}")),
        })
    }

    fn client(self) -> CribbageClient {
        CribbageClient { screen: self, numbers: Vec::new(), total_at: None, stack_ending: StackEnding::default() }
    }

    fn reading_json(reading: &Reading<Table, TablePoints>) -> serde_json::Value {
        let state = &reading.board.state;
        let stack: String = state.stack.iter().map(|c| c.to_string()).collect();
        serde_json::json!({
            "columns": Deal { columns: state.columns.clone() }.notation(),
            "stack": stack, "stack_known": reading.board.stack_known, "total": state.total(),
            "score": reading.board.score_known.then_some(state.score), "theme": reading.theme,
            "points": reading.layout,
        })
    }

    /// State text, with a score line where the picture (or its window title) shows the score, and saying so
    /// where the table does not show the stack.
    fn reading_text(reading: &Reading<Table, TablePoints>) -> String {
        reading.board.to_string()
    }

    /// Learns the felt, outline darkness and one glyph per rank from a screenshot whose position is known,
    /// checks that the learned theme reads it back, and saves it.
    fn calibrate(target: &ThemeTarget, image: &RgbaImage, truth: &reader::TableTruth) -> Result<String> {
        let (root, theme_name) = (target.root, target.name);
        let mut theme = theme_to_refresh(target, "cribbage", || TableTheme::new(theme_name))?;
        let ranks = reader::learn(image, truth, &mut theme)?;
        // The title, where the truth gives it, says whether (and after which word) it shows the score.
        let title_note = match &truth.title {
            Some(title) => match learn_score_word(title, truth.state.score) {
                Ok(word) => {
                    let note = format!("the window title shows the score after '{word}'\n");
                    theme.score_in_title = Some(word);
                    note
                }
                Err(e) => {
                    theme.score_in_title = None;
                    format!("no score is read from the window title ({e:#})\n")
                }
            },
            None => String::new(),
        };
        let numbers = NumberReader::load(root).ok();
        let check = reader::read_with_numbers(image, std::slice::from_ref(&theme), numbers.as_ref())
            .context("the learned theme does not read its own screenshot")?;
        let printed_right =
            check.total.is_none_or(|t| t == truth.state.total()) && check.score.is_none_or(|s| s == truth.state.score);
        if !printed_right {
            anyhow::bail!(
                "the learned theme reads the printed total and score as {:?} and {:?}, but the truth says {} and {}",
                check.total,
                check.score,
                truth.state.total(),
                truth.state.score
            );
        }
        if check.state.columns != truth.state.columns || (check.stack_shown && check.state.stack != truth.state.stack) {
            anyhow::bail!("the learned theme reads its own screenshot as\n{}", state_text(&check.state));
        }
        let stacks_end = match check.points.next_stack {
            Some((x, y)) if truth.end_stack.is_some() => format!("stacks end by the control named at ({x}, {y})"),
            Some((x, y)) => format!("stacks end by the button seen right of the columns, at ({x}, {y})"),
            None if truth.ends_stacks_itself => "the table ends its stacks by itself (as labelled)".to_owned(),
            None => "no control that ends a stack was seen or named: the table is taken to end its stacks by \
                     itself, and play stops if it does not (name its control with a truth line `end stack: X,Y`)"
                .to_owned(),
        };
        let path = theme.save(root)?;
        Ok(format!(
            "learned {} rank glyph(s): {}; felt {}, outlines up to luminance {}, {}\n{stacks_end}\n{title_note}wrote {}\n",
            ranks.len(),
            ranks.iter().collect::<String>(),
            theme.felt,
            theme.outline_max,
            if theme.stack_pile { "the stack as a pile" } else { "no stack pile (the bot keeps the stack)" },
            path.display()
        ))
    }
}

impl CribbageClient {
    /// A move either shows as the rules say or not at all (a click the table did not take, which the loop
    /// tries again): a card gone from another column, a stack or total other than the rules', or a score that
    /// moved otherwise stops the game, naming what differs. On a table taken to end its stacks by itself (it
    /// shows no control for it), a card that left nothing fitting and a stack the table kept says that it does
    /// not: `Ok(Some(position))`, the rules' position with the stack kept ([`stack_end`] finds how it ends).
    fn check_move(before: &Table, mv: &Move, seen: &Table) -> Result<Option<State>> {
        let expected = Cribbage.apply(before, mv);
        if *seen == expected || *seen == *before {
            return Ok(None);
        }
        let mut kept = before.state.clone();
        if before.ends_stacks_itself
            && kept.play(*mv).is_ok()
            && kept.legal_moves() == [Move::NewStack]
            && *seen == (Table { state: kept.clone(), total_shown: None, ..before.clone() })
        {
            return Ok(Some(kept));
        }
        let cards = |cards: &[crate::games::cribbage::Card]| -> String {
            if cards.is_empty() {
                "nothing".into()
            } else {
                cards.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ")
            }
        };
        let mut differences = Vec::new();
        for c in 0..4 {
            let (now, want) = (&seen.state.columns[c], &expected.state.columns[c]);
            if now != want {
                differences.push(format!("column {} shows {}, the rules say {}", c + 1, cards(now), cards(want)));
            }
        }
        if seen.stack_known && expected.stack_known && seen.state.stack != expected.state.stack {
            differences.push(format!(
                "the stack is {} (total {}), the rules say {} (total {})",
                cards(&seen.state.stack),
                seen.state.total(),
                cards(&expected.state.stack),
                expected.state.total()
            ));
        }
        if let (Some(seen_total), Some(total), false) =
            (seen.total(), expected.total(), seen.stack_known && expected.stack_known)
        {
            if seen_total != total {
                differences.push(format!("the total shows {seen_total}, the rules say {total}"));
            }
        }
        if seen.score_known && expected.score_known && seen.state.score != expected.state.score {
            differences.push(format!("the score is {}, the rules say {}", seen.state.score, expected.state.score));
        }
        anyhow::bail!("after {mv} the table does not show what the rules say: {}; stopped", differences.join("; "))
    }

    /// After a card was played (`expected`: the table the rules say it made), where the table prints its total
    /// is the one printed number that shows the rules' total, where that is not 0 (a score may be 0 too).
    fn learn_total(&mut self, mv: &Move, expected: &Table) {
        let total = expected.state.total();
        if self.total_at.is_some() || *mv == Move::NewStack || total == 0 {
            return;
        }
        if let [(at, _)] = self.numbers.iter().filter(|&&(_, n)| n == total).collect::<Vec<_>>().as_slice() {
            self.total_at = Some(*at);
        }
    }

    /// The score and the stack the picture does not show are the ones the bot counted.
    fn carry_over(known: &Table, seen: Table) -> Table {
        let mut table = seen;
        if !table.score_known && known.score_known {
            table.state.score = known.state.score;
            table.score_known = true;
        }
        if !table.stack_known && known.stack_known {
            table.state.stack.clone_from(&known.state.stack);
            table.stack_known = true;
        }
        table
    }
}

/// The number printed nearest `at` (a number's point moves as its digits change), within a card's width.
fn number_at(numbers: &[((i32, i32), u32)], at: (i32, i32), card_width: usize) -> Option<u32> {
    let away = |&((x, y), _): &((i32, i32), u32)| (x - at.0).abs() + 4 * (y - at.1).abs();
    numbers.iter().filter(|n| away(n) <= card_width as i32).min_by_key(|n| away(n)).map(|&(_, n)| n)
}

impl Client for CribbageClient {
    type Rules = Cribbage;
    type Layout = TablePoints;
    type Way = OnlyWay;

    fn rules(&self) -> &Cribbage {
        &Cribbage
    }

    /// The columns and stack from the picture; the score from the window title where the table's theme says the
    /// title shows it, else from the table's printed text, when either shows one.
    fn read(&mut self, frame: &Frame, hint: Option<&TablePoints>) -> Result<Reading<Table, TablePoints>> {
        let reading = read_any(
            &frame.image,
            &self.screen.themes,
            self.screen.numbers.as_ref(),
            self.screen.rank_shapes.as_ref(),
            hint,
        )?;
        let word =
            self.screen.themes.iter().find(|t| t.theme == reading.theme).and_then(|t| t.score_in_title.as_deref());
        let from_title = frame.title.as_deref().zip(word).and_then(|(title, word)| title_score(title, word));
        let score = from_title.or(reading.score);
        let total = reading.total.or_else(|| {
            let at = self.total_at?;
            number_at(&reading.numbers, at, reading.points.card_width)
        });
        self.numbers.clone_from(&reading.numbers);
        self.stack_ending.guessed = reading.theme == by_shape::THEME;
        if reading.points.stack.is_some() {
            self.stack_ending.last_seen = reading.points.stack;
        }
        // A table that shows no stack (no pile, no small cards) shows an empty one by a total of 0, or by all 52
        // cards still in the columns; a pile of one card may be only the stack's top card.
        let on_table: usize = reading.state.columns.iter().map(Vec::len).sum();
        // A stack the previous picture showed (a pile, a row) that this one shows nowhere, just after the bot
        // asked for the stack's end, was emptied. (At other times a stack read nowhere is only not seen.)
        let emptied = self.stack_ending.asked && hint.is_some_and(|h| h.stack.is_some()) && !reading.stack_shown;
        let stack_known =
            (reading.stack_shown && !reading.stack_top_only) || on_table == 52 || total == Some(0) || emptied;
        let state = State { score: score.unwrap_or(0), ..reading.state };
        // (A table seen to keep a stack no card fits does not end its stacks by itself, whatever it shows.)
        let ends_stacks_itself = reading.ends_stacks_itself && !self.stack_ending.keeps_stacks;
        // The printed total is compared with the rules' only on a table read with no calibration (a calibrated
        // table's printed total may lag its stack, as the parlour's does while it clears a full stack).
        let total_shown = total.filter(|_| reading.theme == by_shape::THEME);
        let board = Table { state, score_known: score.is_some(), stack_known, ends_stacks_itself, total_shown };
        Ok(Reading { board, layout: reading.points, theme: reading.theme })
    }

    /// The browser draws a click's result in its next frame; nothing animates.
    fn settle(&self) -> Settle {
        Settle {
            interval: Duration::from_millis(10),
            quiet: Duration::from_millis(40),
            after_click: Duration::from_millis(20),
        }
    }

    /// A click on the card (or the control that ends a stack); there is no other way. A copy of a card's click plays
    /// the column's next card once the first has taken effect, and a copy of the control's may end the next stack:
    /// never repeated ([`crate::game::Repeat::Changes`]).
    fn actions(
        &mut self,
        _frame: &Frame,
        reading: &Reading<Table, TablePoints>,
        mv: &Move,
        _way: OnlyWay,
    ) -> Result<Option<MoveEvents>> {
        let points = &reading.layout;
        if *mv == Move::NewStack && points.next_stack.is_none() {
            // No control shown: the ways a person would try ([`stack_end`]), each on trial until one works.
            self.stack_ending.asked = true;
            // (Where the stack was last seen, where this picture shows none: an emptied stack may show no place.)
            let stack = points.stack.or(self.stack_ending.last_seen);
            let offered = Offered { buttons: &points.may_end_stack, stack, total: self.total_at };
            return Ok(self.stack_ending.events(offered).map(|(way, actions, trial)| {
                let events = MoveEvents { way: Some(way.name()), ..MoveEvents::usual(actions).expect("events") };
                events.trying(trial)
            }));
        }
        Ok(MoveEvents::usual(vec![actions::click(points, &reading.board.state, mv)?]))
    }

    /// A move checked against the rules ([`CribbageClient::check_move`]); a reading completed with the score and
    /// stack the bot counted ([`CribbageClient::carry_over`]).
    fn shown(&mut self, shown: Shown<'_, Self>) -> Result<Answer<Table>> {
        Ok(match shown {
            Shown::Move { before, mv, seen, expected, trial } => {
                self.stack_ending.asked = false;
                if let (Some(number), Move::NewStack) = (trial, mv) {
                    // (Where the picture cannot tell the two apart, a stack it does not show, nothing is learned.)
                    if (seen == before) != (seen == expected) {
                        let control = self.stack_ending.learn(number, seen == expected);
                        return Ok(Answer::Learned(Learned { variant: None, control }));
                    }
                }
                self.learn_total(mv, expected);
                let kept = Self::check_move(before, mv, seen)?;
                if kept.is_some() && !self.stack_ending.guessed {
                    // A calibration says this table ends its stacks itself, and it kept one: nothing to try.
                    anyhow::bail!(
                        "after {mv} no card fits, but the table did not end the stack by itself, as its \
                         calibration says it does; stopped"
                    );
                }
                if let Some(kept) = kept {
                    // The table's own rule, which its picture did not tell: it does not end stacks by itself.
                    self.stack_ending.keeps_stacks = true;
                    // The position is the rules' with the stack kept (a table may show only part of the stack).
                    let board = Table { state: kept, ends_stacks_itself: false, total_shown: None, ..before.clone() };
                    let what = "the table keeps a stack that no card fits: it does not end stacks by itself, and \
                                shows no control for it; the ways a person ends one are tried"
                        .to_owned();
                    return Ok(Answer::Learned(Learned { variant: Some((board, what)), control: None }));
                }
                Answer::Nothing
            }
            Shown::Read { known, seen } => Answer::Completed(Self::carry_over(known, seen.clone())),
            _ => Answer::Nothing,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The points of a table showing `A23_4_5_6`: three cards in the first column, one in each other.
    fn deal_points() -> TablePoints {
        TablePoints {
            cards: [vec![(5, 10), (5, 20), (5, 30)], vec![(9, 10)], vec![(13, 10)], vec![(17, 10)]],
            next_stack: Some((50, 5)),
            stack: None,
            may_end_stack: Vec::new(),
            card_width: 8,
            columns: None,
            ranks: None,
            stack_ranks: None,
            bands: None,
        }
    }

    /// A client with no themes and no fonts: reads nothing, acts on a reading given.
    fn test_client() -> CribbageClient {
        CribbageScreen { themes: Vec::new(), numbers: None, rank_shapes: Err("none".into()) }.client()
    }
    use crate::game::{Action, SolveLimits};

    #[test]
    fn the_score_is_read_from_the_title_after_the_learned_word() {
        assert_eq!(title_score("Cribbage Solitaire \u{2014} deal 30 \u{2014} score 42", "score"), Some(42));
        assert_eq!(
            title_score("Cribbage Solitaire \u{2014} deal 30 \u{2014} score 109 \u{2014} complete", "score"),
            Some(109)
        );
        assert_eq!(title_score("Patience \u{2014} Points: 17", "points"), Some(17));
        assert_eq!(title_score("Cribbage Solitaire", "score"), None);
        assert_eq!(title_score("Highscore 90, score 12", "score"), Some(12), "a whole word only");
    }

    #[test]
    fn the_word_before_the_score_is_learned_from_a_title_that_shows_it_once() {
        assert_eq!(learn_score_word("Cribbage Solitaire \u{2014} deal 30 \u{2014} score 0", 0).unwrap(), "score");
        assert_eq!(learn_score_word("Patience \u{2014} Points: 17", 17).unwrap(), "points");
        let error = learn_score_word("Cribbage Solitaire \u{2014} deal 30", 0).unwrap_err().to_string();
        assert!(error.contains("does not show the score 0"), "{error}");
        let error = learn_score_word("deal 12 \u{2014} score 12", 12).unwrap_err().to_string();
        assert!(error.contains("more than once"), "{error}");
    }

    /// A window title with "score 12" in it is read for the score only where the table's theme learned that its
    /// title shows the score: another program's title (or a table whose title does not) changes nothing.
    #[test]
    fn a_title_is_read_for_the_score_only_where_the_theme_says_it_shows_it() {
        let root = crate::calibration::calibration_root(Some(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("calibration"),
        ));
        let screen = CribbageScreen::load(&root, Some("table")).unwrap();
        let shot = crate::imageio::load_image(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/cribbage/deal30-start.png"),
        )
        .unwrap();
        let frame = |title: &str| Frame { title: Some(title.to_owned()), ..Frame::from_image(shot.clone()) };
        assert_eq!(
            screen.themes[0].score_in_title.as_deref(),
            Some("score"),
            "the shipped table's theme reads its title"
        );
        let mut themes = screen.themes.clone();
        let mut client = screen.client();
        let read = client.read(&frame("Cribbage Solitaire \u{2014} deal 30 \u{2014} score 42"), None).unwrap();
        assert_eq!((read.board.score_known, read.board.state.score), (true, 42));
        themes[0].score_in_title = None;
        let mut client = CribbageScreen { themes, ..CribbageScreen::load(&root, Some("table")).unwrap() }.client();
        let read = client.read(&frame("My notes \u{2014} score 12"), None).unwrap();
        assert!(!read.board.score_known || read.board.state.score != 12, "{:?}", read.board.state.score);
    }

    #[test]
    fn an_unknown_score_is_carried_over_and_a_known_one_must_agree() {
        let game = Cribbage;
        let start = game.parse_board("A23_4_5_6\nstack: K\nscore: 3\n").unwrap();
        let next = game.apply(&start, &Move::Play(0));
        assert_eq!(next.state.stack.len(), 2);
        assert_eq!(game.apply(&next, &Move::NewStack), next, "an illegal move changes nothing");
        // The picture shows no score: the same position, and the score the bot counted is carried over.
        let unseen = Table {
            state: State { score: 0, ..next.state.clone() },
            score_known: false,
            stack_known: true,
            ends_stacks_itself: false,
            total_shown: None,
        };
        assert_eq!(unseen, next);
        assert_eq!(CribbageClient::carry_over(&next, unseen).state.score, next.state.score);
        // A score on show that differs from the engine's is a different position.
        let shown = Table {
            state: State { score: next.state.score + 2, ..next.state.clone() },
            score_known: true,
            stack_known: true,
            ends_stacks_itself: false,
            total_shown: None,
        };
        assert_ne!(shown, next);
        assert_eq!(CribbageClient::carry_over(&next, shown.clone()).state.score, shown.state.score);
    }

    /// A card that leaves another column, or a stack the table ended by itself unasked, stops the game; a click
    /// not taken (the table as before) does not.
    #[test]
    fn a_move_that_shows_otherwise_than_the_rules_say_stops_the_game() {
        let game = Cribbage;
        let before = game.parse_board("KQ_J_T_9\nstack: 5 6\n").unwrap();
        let mv = Move::Play(0);
        assert!(CribbageClient::check_move(&before, &mv, &game.apply(&before, &mv)).is_ok());
        assert!(CribbageClient::check_move(&before, &mv, &before).is_ok());
        let other = game.apply(&before, &Move::Play(1));
        let error = CribbageClient::check_move(&before, &mv, &other).unwrap_err().to_string();
        assert!(
            error.contains("column 1 shows K Q, the rules say K")
                && error.contains("column 2 shows nothing, the rules say J"),
            "{error}"
        );
        let ended = Table { state: State { stack: Vec::new(), ..game.apply(&before, &mv).state }, ..before.clone() };
        let error = CribbageClient::check_move(&before, &mv, &ended).unwrap_err().to_string();
        assert!(error.contains("the stack is nothing (total 0), the rules say 5 6 Q (total 21)"), "{error}");
    }

    /// The printed number that showed the rules' total after a card is the total from then on, read wherever its
    /// digits move to; a total the rules give as 0, or two numbers showing it, teach nothing.
    #[test]
    fn the_total_is_the_printed_number_that_shows_the_rules_total() {
        let game = Cribbage;
        let before = game.parse_board("KQ_J_T_9\nstack: 5\n").unwrap();
        let after = game.apply(&before, &Move::Play(0)); // 5 + Q: total 15
        let mut client = test_client();
        client.numbers = vec![((600, 120), 15), ((600, 150), 15)];
        client.learn_total(&Move::Play(0), &after);
        assert_eq!(client.total_at, None, "two numbers show 15");
        client.numbers = vec![((600, 120), 15), ((600, 150), 2)];
        client.learn_total(&Move::NewStack, &after);
        assert_eq!(client.total_at, None, "a stack's end teaches nothing");
        client.learn_total(&Move::Play(0), &after);
        assert_eq!(client.total_at, Some((600, 120)));
        let shown = [((594, 121), 0), ((600, 150), 2)];
        assert_eq!(number_at(&shown, client.total_at.unwrap(), 90), Some(0), "its one digit stands left of two");
        assert_eq!(number_at(&[((600, 150), 2)], (600, 120), 90), None, "another line is another number");
    }

    /// On a table that ends stacks by itself, a card that leaves nothing fitting ends the stack, and the plan
    /// has no stack ends for the bot to make; it scores what the solver proves.
    #[test]
    fn a_table_that_ends_stacks_by_itself_is_played_without_ending_them() {
        let game = Cribbage;
        let start = game.parse_board("KQ_J_T_9\nstack: 5 6\n").unwrap();
        let auto = Table { ends_stacks_itself: true, ..start.clone() };
        // 11 + 10 = 21 fits; then 21 + 10 = 31, and nothing fits: the table ends the stack.
        let after = game.apply(&auto, &Move::Play(0));
        assert_eq!(after.state.total(), 21);
        let full = game.apply(&after, &Move::Play(1));
        assert!(full.state.stack.is_empty(), "{}", full.state.total());
        assert!(!game.apply(&start, &Move::Play(1)).state.stack.is_empty(), "a plain table waits for NEXT STACK");
        let plan = game.solve(&auto, &SolveLimits::default()).unwrap();
        assert!(!plan.moves.contains(&Move::NewStack) && plan.moves.len() == 5, "{:?}", plan.moves);
        let mut board = auto;
        for mv in &plan.moves {
            board = game.apply(&board, mv);
        }
        assert!(board.state.is_over());
        assert_eq!(board.state.score, crate::games::cribbage::solve(&start.state).score);
        // A stack shown with nothing fitting (30): the table ends it before the next card.
        let stuck = Table { ends_stacks_itself: true, ..game.parse_board("KQ_J_T_9\nstack: T T T\n").unwrap() };
        let plan = game.solve(&stuck, &SolveLimits::default()).unwrap();
        let mut board = stuck;
        for mv in &plan.moves {
            let next = game.apply(&board, mv);
            assert_ne!(next, board, "{mv} changed nothing");
            board = next;
        }
        assert!(board.state.is_over() && !plan.moves.contains(&Move::NewStack));
    }

    /// A table taken to end its stacks by itself (it shows no control for it) that keeps a stack nothing fits
    /// does not: the client says so, plans the stack's end from then on, and makes it the ways a person would,
    /// each on trial: a click on the stack first; one that leaves the table as it was is dropped for the next.
    #[test]
    fn a_table_with_no_control_that_keeps_a_full_stack_is_asked_to_end_it() {
        let game = Cribbage;
        let auto = Table { ends_stacks_itself: true, ..game.parse_board("KQ_J_T_9\nstack: 5 6 Q\n").unwrap() };
        let mv = Move::Play(1);
        let mut kept = auto.state.clone();
        kept.play(mv).unwrap();
        assert_eq!(kept.total(), 31);
        let kept = Table { state: kept, ..auto.clone() };
        assert_eq!(
            CribbageClient::check_move(&auto, &mv, &kept).unwrap(),
            Some(kept.state.clone()),
            "the table kept the stack"
        );
        assert!(CribbageClient::check_move(&auto, &mv, &game.apply(&auto, &mv)).unwrap().is_none());
        // A table with the control: the stack is kept until the bot ends it.
        let plain = Table { ends_stacks_itself: false, ..auto.clone() };
        assert!(CribbageClient::check_move(&plain, &mv, &kept).unwrap().is_none());

        // A table that shows the stack's top card only, and prints its total: the total tells the kept stack.
        let unseen =
            |table: &Table| Table { stack_known: false, total_shown: Some(table.state.total()), ..table.clone() };
        assert!(CribbageClient::check_move(&auto, &mv, &unseen(&kept)).unwrap().is_some());
        assert!(CribbageClient::check_move(&auto, &mv, &unseen(&game.apply(&auto, &mv))).unwrap().is_none());

        let mut client = test_client();
        // A table calibrated as ending its stacks itself that keeps one stops the game.
        let expected = game.apply(&auto, &mv);
        let shown = Shown::Move { before: &auto, mv: &mv, seen: &kept, expected: &expected, trial: None };
        assert!(client.shown(shown).is_err(), "calibrated as ending its stacks: stopped, saying so");
        client.stack_ending.guessed = true;
        let shown = Shown::Move { before: &auto, mv: &mv, seen: &kept, expected: &expected, trial: None };
        match client.shown(shown).unwrap() {
            Answer::Learned(Learned { variant: Some((board, _)), .. }) => assert!(!board.ends_stacks_itself),
            _ => panic!("the table's rule is learned"),
        }
        assert!(client.stack_ending.keeps_stacks);
        let mut points = deal_points();
        points.next_stack = None;
        points.stack = Some((40, 12));
        let reading = Reading {
            board: Table { ends_stacks_itself: false, ..kept.clone() },
            layout: points,
            theme: "test".into(),
        };
        let plan = game.solve(&reading.board, &SolveLimits::default()).unwrap();
        assert_eq!(plan.moves[0], Move::NewStack, "the stack's end is planned");
        let frame = Frame::from_image(RgbaImage::new(60, 60));
        let events = client.actions(&frame, &reading, &Move::NewStack, OnlyWay).unwrap().unwrap();
        assert_eq!((events.actions.clone(), events.trial), (vec![Action::Click { x: 40, y: 12 }], Some(0)));
        // The click left the table as it was: dropped, and the next way (no total printed: Enter) is tried.
        let ended = game.apply(&reading.board, &Move::NewStack);
        let shown = Shown::Move {
            before: &reading.board,
            mv: &Move::NewStack,
            seen: &reading.board,
            expected: &ended,
            trial: Some(0),
        };
        assert!(matches!(client.shown(shown).unwrap(), Answer::Learned(Learned { control: Some(_), .. })));
        let events = client.actions(&frame, &reading, &Move::NewStack, OnlyWay).unwrap().unwrap();
        assert_eq!((events.actions.clone(), events.trial), (vec![Action::Key(crate::game::Key::Enter)], Some(1)));
        let shown =
            Shown::Move { before: &reading.board, mv: &Move::NewStack, seen: &ended, expected: &ended, trial: Some(1) };
        client.shown(shown).unwrap();
        let events = client.actions(&frame, &reading, &Move::NewStack, OnlyWay).unwrap().unwrap();
        assert_eq!(events.trial, None, "proved");
    }

    /// A copy of a card's click plays the column's next card: never repeated.
    #[test]
    fn a_card_clicked_again_plays_the_next_one() {
        let game = Cribbage;
        let start = game.parse_board("A23_4_5_6\nstack: K\n").unwrap();
        let points = deal_points();
        let reading = Reading { board: start.clone(), layout: points, theme: "test".into() };
        let frame = Frame::from_image(RgbaImage::new(60, 60));
        let events = test_client().actions(&frame, &reading, &Move::Play(0), OnlyWay).unwrap().unwrap();
        assert_eq!(events.repeat, crate::game::Repeat::Changes);
        let once = game.apply(&start, &Move::Play(0));
        assert_ne!(game.apply(&once, &Move::Play(0)), once, "a second copy plays the 2");
    }

    #[test]
    fn a_column_is_clicked_at_its_playable_card() {
        let game = Cribbage;
        let start = game.parse_board("A23_4_5_6\nstack: K\n").unwrap();
        let points = deal_points();
        assert_eq!(actions::click(&points, &start.state, &Move::Play(0)).unwrap(), Action::Click { x: 5, y: 30 });
        let after = game.apply(&start, &Move::Play(0));
        assert_eq!(actions::click(&points, &after.state, &Move::Play(0)).unwrap(), Action::Click { x: 5, y: 20 });
        assert_eq!(actions::click(&points, &after.state, &Move::NewStack).unwrap(), Action::Click { x: 50, y: 5 });
    }
}
