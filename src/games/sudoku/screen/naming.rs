//! Naming the marks of a board read with no calibration by what the board must be, with the fonts' digits as the
//! first guess rather than the gate.
//!
//! Marks of one digit in one font look alike, whatever their ink (a given in black, the player's in blue): they are
//! grouped into *shape classes* (a mark joins the first class whose first mark is within [`SAME_SHAPE`] of it, at
//! about the same height), and a class takes one name, so a player's digit is named as the givens of its shape. Each
//! class has a cost per name (digits 1–9, and 0 for a mark drawn over an empty cell): the sum over its marks of
//! their distances to the nearest rendering of that character in the known fonts. The classes are named by the
//! assignment of least total cost under which the givens are a Sudoku — no given twice in a row, column or box,
//! and the givens have a solution (the player's digits may clash: a player's mistake, at a cost) — found by a depth-first search over each class's nearer names with
//! the unconstrained least cost as its bound, so that where the fonts' nearest digits already make a legal board
//! (the usual case) that is the answer, found first. A digit in a font none of the listed fonts resembles closely
//! is still named where its class is nearer that digit than any other name the rules allow.
//!
//! A class further than [`NOT_A_DIGIT`] from every name is no digit (a cursor's block, a picture); where no
//! assignment makes a legal board, the error names each doubtful class by its cells and candidate digits.
//! Nothing is ever guessed: a reading either satisfies the rules or is refused.

use anyhow::{bail, Result};

use crate::games::sudoku::board::Grid;
use crate::games::sudoku::solver::count_solutions;
use crate::vision::glyph::mean_squared_difference;

/// Marks at most this far apart (the fonts' distance: coverage, and aspect) are one shape class.
const SAME_SHAPE: f64 = 0.03;
/// A mark further than this from every character of the fonts is no digit.
pub const NOT_A_DIGIT: f64 = 0.2;
/// The names a class may take: those whose mean distance is within this of its nearest one's.
const SLACK: f64 = 0.08;
/// What a naming costs more for each player's digit it makes repeat a given (a player's mistake is possible,
/// but less likely than a near guess that keeps to the rules).
const CLASH_COST: f64 = 0.05;
/// A class at most this far from its nearest name (mean per mark), with the next at least this many times
/// further, is named clearly.
const CLEAR: f64 = 0.03;
const CLEAR_RATIO: f64 = 3.0;
/// At most this many names per class are tried.
const NAMES_TRIED: usize = 4;
/// The search gives up after this many steps (names tried), or this many complete namings checked with the
/// solver: a picture of noise that looks like a grid of marks costs milliseconds, not seconds.
const BUDGET: usize = 20_000;
const SOLVED_AT_MOST: usize = 200;

/// A digit-sized mark in a cell, and its distance to each name (index 0: a mark over an empty cell; 1–9 the
/// digits).
#[derive(Clone, Debug)]
pub struct Mark {
    pub cell: usize,
    pub coverage: Vec<f32>,
    pub aspect: f64,
    pub height: usize,
    pub given: bool,
    pub costs: [f64; 10],
}

impl Mark {
    fn shape_distance(&self, other: &Mark) -> f64 {
        mean_squared_difference(&self.coverage, &other.coverage) + 0.05 * (self.aspect - other.aspect).powi(2)
    }
}

/// A shape class: its marks (indices into the marks), and its cost per name.
struct Class {
    marks: Vec<usize>,
    costs: [f64; 10],
    /// The names tried, least cost first.
    names: Vec<u8>,
}

/// The name of every mark (0: an empty cell's mark), on a `size`×`size` board with boxes of `box_rows` ×
/// `box_cols`; an error where no naming makes a legal board.
pub fn name_marks(marks: &[Mark], box_rows: usize, box_cols: usize) -> Result<Vec<u8>> {
    let size = box_rows * box_cols;
    let classes = shape_classes(marks);
    let cell_of = |i: usize| (marks[i].cell / size, marks[i].cell % size);
    for class in &classes {
        let best = class.costs.iter().copied().fold(f64::INFINITY, f64::min) / class.marks.len() as f64;
        if best > NOT_A_DIGIT {
            let (row, col) = cell_of(class.marks[0]);
            bail!(
                "cell (row {row}, column {col}){} shows a mark that is no digit of the known fonts (the nearest at \
                 distance {best:.3}, beyond {NOT_A_DIGIT}): calibrate this client (`autoplay calibrate sudoku`)",
                others(class.marks.len())
            );
        }
    }
    let mut search = Search {
        marks,
        classes: &classes,
        box_rows,
        box_cols,
        board: vec![0; size * size],
        names: vec![0; classes.len()],
        best: None,
        tried: 0,
        solved: 0,
    };
    // The least cost each class can add, for the bound.
    let floor: Vec<f64> = classes.iter().map(|c| c.costs[c.names[0] as usize]).collect();
    let mut rest: Vec<f64> = vec![0.0; classes.len() + 1];
    for k in (0..classes.len()).rev() {
        rest[k] = rest[k + 1] + floor[k];
    }
    search.run(0, 0.0, &rest);
    match search.best {
        Some((_, names)) => {
            let mut named = vec![0; marks.len()];
            for (class, name) in classes.iter().zip(names) {
                for &m in &class.marks {
                    named[m] = name;
                }
            }
            Ok(named)
        }
        None => {
            let described: Vec<String> = classes
                .iter()
                .filter(|c| c.names.len() > 1 || c.names[0] != 0)
                .take(6)
                .map(|c| {
                    let cells: Vec<String> = c
                        .marks
                        .iter()
                        .take(3)
                        .map(|&m| {
                            let (r, col) = cell_of(m);
                            format!("({r}, {col})")
                        })
                        .collect();
                    let names: Vec<String> = c
                        .names
                        .iter()
                        .map(|&n| format!("'{n}' {:.3}", c.costs[n as usize] / c.marks.len() as f64))
                        .collect();
                    format!(
                        "cells {}{}: {}",
                        cells.join(" "),
                        others(c.marks.len().saturating_sub(2)),
                        names.join(", ")
                    )
                })
                .collect();
            let why = if search.out_of_budget() { "no naming found within the search's budget" } else { "none" };
            bail!(
                "the marks in the cells cannot be named as digits that make a Sudoku ({why}; rows and columns from 0): {}; \
                 calibrate this client (`autoplay calibrate sudoku`)",
                described.join("; ")
            )
        }
    }
}

/// " and N other cells" where a class has more marks than the one named.
fn others(count: usize) -> String {
    match count {
        0 | 1 => String::new(),
        n => format!(" and {} other cell{}", n - 1, if n == 2 { "" } else { "s" }),
    }
}

/// Each mark's shape class (an index; marks of one shape share it).
pub fn shape_class_of(marks: &[Mark]) -> Vec<usize> {
    let mut class_of = vec![0; marks.len()];
    for (k, class) in shape_classes(marks).iter().enumerate() {
        for &m in &class.marks {
            class_of[m] = k;
        }
    }
    class_of
}

/// Groups the marks into shape classes (see the module doc), largest first.
fn shape_classes(marks: &[Mark]) -> Vec<Class> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, mark) in marks.iter().enumerate() {
        let alike = |first: &Mark| {
            first.height.abs_diff(mark.height) * 6 <= first.height.max(mark.height)
                && first.shape_distance(mark) <= SAME_SHAPE
        };
        match groups.iter_mut().find(|g| alike(&marks[g[0]])) {
            Some(group) => group.push(i),
            None => groups.push(vec![i]),
        }
    }
    groups.sort_by_key(|g| std::cmp::Reverse(g.len()));
    groups
        .into_iter()
        .map(|marks_of| {
            let mut costs = [0.0; 10];
            for &m in &marks_of {
                for (total, cost) in costs.iter_mut().zip(marks[m].costs) {
                    *total += cost;
                }
            }
            let count = marks_of.len() as f64;
            let mut order: Vec<u8> = (0..10).collect();
            order.sort_by(|&a, &b| costs[a as usize].total_cmp(&costs[b as usize]));
            let least = costs[order[0] as usize] / count;
            let next = costs[order[1] as usize] / count;
            // A class that matches one digit clearly keeps that name: the rules choose only between close guesses,
            // and never rename clear ones to make room for a doubtful mark.
            let slack = if least <= CLEAR && next >= CLEAR_RATIO * least.max(0.01) { 0.0 } else { SLACK };
            let names: Vec<u8> = order
                .into_iter()
                .filter(|&n| costs[n as usize] / count <= (least + slack).min(NOT_A_DIGIT.max(least)))
                .take(NAMES_TRIED)
                .collect();
            Class { marks: marks_of, costs, names }
        })
        .collect()
}

/// The depth-first search for the least-cost legal naming.
struct Search<'a> {
    marks: &'a [Mark],
    classes: &'a [Class],
    box_rows: usize,
    box_cols: usize,
    /// The givens named so far (0: none).
    board: Vec<u8>,
    names: Vec<u8>,
    best: Option<(f64, Vec<u8>)>,
    /// Steps taken, and complete namings checked with the solver.
    tried: usize,
    solved: usize,
}

impl Search<'_> {
    fn out_of_budget(&self) -> bool {
        self.tried >= BUDGET || self.solved >= SOLVED_AT_MOST
    }

    fn run(&mut self, k: usize, cost: f64, rest: &[f64]) {
        self.tried += 1;
        if self.out_of_budget() || self.best.as_ref().is_some_and(|(best, _)| cost + rest[k] >= *best) {
            return;
        }
        if k == self.classes.len() {
            // A player's digit may clash with a given (a mistake), but a naming that makes it clash costs more.
            let cost = cost + CLASH_COST * self.players_clashing() as f64;
            if self.best.as_ref().is_some_and(|(best, _)| cost >= *best) {
                return;
            }
            self.solved += 1;
            if self.givens_solvable() {
                self.best = Some((cost, self.names.clone()));
            }
            return;
        }
        let class = &self.classes[k];
        for &name in &class.names {
            if name != 0 && !self.fits(class, name) {
                continue;
            }
            for m in self.givens_of(class) {
                self.board[self.marks[m].cell] = name;
            }
            self.names[k] = name;
            self.run(k + 1, cost + class.costs[name as usize], rest);
            for m in self.givens_of(class) {
                self.board[self.marks[m].cell] = 0;
            }
        }
    }

    /// The class's marks that are givens.
    fn givens_of(&self, class: &Class) -> Vec<usize> {
        class.marks.iter().copied().filter(|&m| self.marks[m].given).collect()
    }

    /// Whether `digit` in every given of `class` repeats no given placed in a row, column or box (nor another
    /// given of the class). The player's digits are not held to it: a player's mistake may clash.
    fn fits(&self, class: &Class, digit: u8) -> bool {
        let size = self.box_rows * self.box_cols;
        let cells: Vec<usize> = self.givens_of(class).into_iter().map(|m| self.marks[m].cell).collect();
        let unit = |a: usize, b: usize| {
            let (ra, ca, rb, cb) = (a / size, a % size, b / size, b % size);
            ra == rb
                || ca == cb
                || (ra / self.box_rows == rb / self.box_rows && ca / self.box_cols == cb / self.box_cols)
        };
        for (i, &a) in cells.iter().enumerate() {
            if cells[..i].iter().any(|&b| unit(a, b)) {
                return false;
            }
            let (row, col) = (a / size, a % size);
            let peers = (0..size).map(|c| row * size + c).chain((0..size).map(|r| r * size + col)).chain({
                let (r0, c0) = (row / self.box_rows * self.box_rows, col / self.box_cols * self.box_cols);
                (0..size).map(move |j| (r0 + j / self.box_cols) * size + c0 + j % self.box_cols)
            });
            if peers.into_iter().any(|p| p != a && self.board[p] == digit) {
                return false;
            }
        }
        true
    }

    /// How many of the player's digits, as named, repeat a given in their row, column or box.
    fn players_clashing(&self) -> usize {
        let size = self.box_rows * self.box_cols;
        let mut clashing = 0;
        for (class, &name) in self.classes.iter().zip(&self.names) {
            if name == 0 {
                continue;
            }
            for &m in class.marks.iter().filter(|&&m| !self.marks[m].given) {
                let cell = self.marks[m].cell;
                let (row, col) = (cell / size, cell % size);
                let (r0, c0) = (row / self.box_rows * self.box_rows, col / self.box_cols * self.box_cols);
                let peers = (0..size)
                    .map(|c| row * size + c)
                    .chain((0..size).map(|r| r * size + col))
                    .chain((0..size).map(|j| (r0 + j / self.box_cols) * size + c0 + j % self.box_cols));
                clashing += peers.into_iter().any(|p| p != cell && self.board[p] == name) as usize;
            }
        }
        clashing
    }

    /// Whether the givens as named have a solution.
    fn givens_solvable(&self) -> bool {
        Grid::from_cells(self.box_rows, self.box_cols, self.board.clone())
            .is_ok_and(|grid| count_solutions(&grid, 1) > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A mark of shape `shape` (its coverage: a block of samples of its own) in `cell`, with costs that make
    /// `nearest` its fonts' nearest digit and `second` the next, `gap` further.
    fn mark(cell: usize, shape: usize, nearest: u8, second: u8, gap: f64) -> Mark {
        // Shapes apart: forty samples of their own each.
        let mut coverage = vec![0.0; 256];
        coverage[shape * 40..shape * 40 + 40].fill(1.0);
        let mut costs = [0.3; 10];
        costs[nearest as usize] = 0.1;
        costs[second as usize] = 0.1 + gap;
        Mark { cell, coverage, aspect: 0.6, height: 20, given: true, costs }
    }

    /// Two shapes whose fonts' nearest digit is the same ('1'), in one row: the rules name the one nearer '7' as
    /// '7'. Shapes alike are one class and take one name.
    #[test]
    fn two_shapes_the_fonts_both_take_for_one_digit_are_told_apart_by_the_rules() {
        let marks = [mark(0, 0, 1, 7, 0.05), mark(1, 1, 1, 7, 0.01), mark(30, 1, 1, 7, 0.01), mark(40, 2, 5, 6, 0.1)];
        let named = name_marks(&marks, 3, 3).unwrap();
        assert_eq!(named, vec![1, 7, 7, 5]);
    }

    /// Where the fonts' nearest digits make a legal board they are the names, however far (within the limit).
    #[test]
    fn the_fonts_nearest_digits_stand_where_the_board_is_legal() {
        let mut far = mark(0, 0, 9, 8, 0.001);
        far.costs = far.costs.map(|c| c + 0.05);
        let marks = [far, mark(10, 1, 3, 8, 0.02)];
        assert_eq!(name_marks(&marks, 3, 3).unwrap(), vec![9, 3]);
    }

    /// No legal naming: an error naming the cells and the candidates; a mark far from every digit: refused.
    #[test]
    fn marks_that_cannot_be_named_are_refused_with_their_cells() {
        // Three shapes in one row, each near only '4'.
        let marks = [mark(0, 0, 4, 4, 0.0), mark(1, 1, 4, 4, 0.0), mark(2, 2, 4, 4, 0.0)];
        let error = name_marks(&marks, 3, 3).unwrap_err().to_string();
        assert!(error.contains("cannot be named as digits that make a Sudoku"), "{error}");
        assert!(error.contains("(0, 1)") && error.contains("'4'"), "{error}");

        let mut block = mark(5, 3, 2, 3, 0.0);
        block.costs = [0.45; 10];
        let error = name_marks(&[block], 3, 3).unwrap_err().to_string();
        assert!(error.contains("cell (row 0, column 5) shows a mark that is no digit"), "{error}");
    }
}
