//! Cribbage Solitaire as the bot plays it ([`Game`]): a position whose score may not be on show. A table in a
//! window shows the columns and the stack; the score only where the client prints it (the project's table puts
//! it in the window title). A position read without a score takes 0 and says the score is unknown, and the play
//! loop carries the score it knows over from the rules engine.

use anyhow::{Context, Result};

use super::commands::parse_state;
use super::deal::Deal;
use super::rules::{parse_line, Move, State};
use super::solve;
use crate::game::{Game, Plan, SolveLimits};

/// Cribbage Solitaire's rules: a position's text, its solver, a move's result and the end. (Reading a table
/// from a picture is its client's: `clients::cribbage`.)
#[derive(Clone, Copy, Debug, Default)]
pub struct Cribbage;

/// A position, and whether its score and its stack are known (shown by the client, given in text, or carried by
/// the bot; a table that draws no stack pile does not show the stack).
#[derive(Clone, Debug)]
pub struct Table {
    pub state: State,
    pub score_known: bool,
    pub stack_known: bool,
    /// The client ends a stack by itself once no card fits (it has no control for it): a card that leaves
    /// nothing fitting is followed by the stack's end, and the bot never asks for one.
    pub ends_stacks_itself: bool,
    /// The stack's total as the table prints it, where it does and the picture was read so (a table may show the
    /// total and not the stack's cards).
    pub total_shown: Option<u32>,
}

impl Table {
    /// A position given whole (state text, the rules' own moves).
    pub fn known(state: State) -> Table {
        Table { state, score_known: true, stack_known: true, ends_stacks_itself: false, total_shown: None }
    }

    /// The stack's total, where it is known: the stack's, else the one the table prints.
    pub fn total(&self) -> Option<u32> {
        if self.stack_known {
            Some(self.state.total())
        } else {
            self.total_shown
        }
    }
}

/// Two tables are the same position when their columns are, and their stacks, totals and scores where both know
/// them.
impl PartialEq for Table {
    fn eq(&self, other: &Table) -> bool {
        self.state.columns == other.state.columns
            && (!self.stack_known || !other.stack_known || self.state.stack == other.state.stack)
            && self.total().zip(other.total()).is_none_or(|(a, b)| a == b)
            && (!self.score_known || !other.score_known || self.state.score == other.state.score)
    }
}

/// State text, as `solve cribbage` reads it (the score line only when the score is known; an unknown stack is
/// said in a comment, its line left empty).
impl std::fmt::Display for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", state_text(&self.state))?;
        if !self.stack_known {
            writeln!(f, "# the table does not show the stack: not known")?;
        }
        if self.score_known {
            writeln!(f, "score: {}", self.state.score)?;
        }
        Ok(())
    }
}

/// A position as state text (what `solve cribbage` reads): the columns in deal notation, the stack bottom
/// first, and its total as a comment.
pub fn state_text(state: &State) -> String {
    let columns = Deal { columns: state.columns.clone() }.notation();
    let stack: Vec<String> = state.stack.iter().map(|c| c.to_string()).collect();
    format!("{columns}\nstack: {}\n# total {}\n", stack.join(" "), state.total())
}

impl Game for Cribbage {
    type Board = Table;
    type Move = Move;

    fn name(&self) -> &'static str {
        "cribbage"
    }

    /// State text; its score (0 when it gives none) is taken as known.
    fn parse_board(&self, text: &str) -> Result<Table> {
        Ok(Table::known(parse_state(text)?))
    }

    /// The best line from the position (exact). On a table that ends stacks by itself the line's stack ends are
    /// left out: the rules make one exactly where no card fits, which is where the table makes it.
    fn solve(&self, board: &Table, _limits: &SolveLimits) -> Result<Plan<Move>> {
        let mut state = board.state.clone();
        if board.ends_stacks_itself && state.legal_moves() == [Move::NewStack] {
            // The table is about to end this stack by itself: plan from the new one.
            state.play(Move::NewStack).expect("a new stack is the only legal move");
        }
        let solution = solve(&state);
        let mut moves = parse_line(&solution.line).context("the solver's line")?;
        if board.ends_stacks_itself {
            moves.retain(|mv| *mv != Move::NewStack);
        }
        Ok(Plan { moves, optimal: true, nodes: solution.nodes })
    }

    /// The move by the rules (an illegal move changes nothing); on a table that ends stacks by itself, a card
    /// that leaves no card fitting ends the stack too (and a stack shown with nothing fitting is ended first).
    fn apply(&self, board: &Table, mv: &Move) -> Table {
        let mut state = board.state.clone();
        let ends_now = |state: &State| board.ends_stacks_itself && state.legal_moves() == [Move::NewStack];
        if ends_now(&state) && *mv != Move::NewStack {
            state.play(Move::NewStack).expect("a new stack is the only legal move");
        }
        if state.play(*mv).is_err() {
            return board.clone();
        }
        if ends_now(&state) {
            state.play(Move::NewStack).expect("a new stack is the only legal move");
        }
        Table { state, total_shown: None, ..board.clone() }
    }

    fn is_won(&self, board: &Table) -> bool {
        board.state.is_over()
    }
}
