//! Naming the marks of a board read with no calibration by what the board must be, with the fonts' digits as the
//! first guess rather than the gate.
//!
//! Marks of one digit in one font look alike, whatever their ink (a given in black, the player's in blue): they are
//! grouped into *shape classes* (a mark joins the first class whose first mark is within [`SAME_SHAPE`] of it, at
//! about the same height; givens found the classes, and a player's mark joins one of them or stands alone), and a
//! class takes one name, so a player's digit is named as the givens of its shape. Each class has a cost per name
//! (digits 1–9, and 0 for a mark drawn over an empty cell): the sum over its marks of their distances to the
//! nearest rendering of that character in the known fonts.
//!
//! The board decides between the fonts' guesses. The classes of givens are named by the assignment of least total
//! cost under which the givens are a Sudoku — no given twice in a row, column or box, and the givens have a
//! solution — found by a depth-first search over each class's nearer names with the unconstrained least cost as its
//! bound ([`crate::vision::labelling::least_cost`]; this module supplies the rules as its constraint), so that
//! where the fonts' nearest digits already make a legal board (the usual case) that is the answer, found first. The
//! player's digits must then be consistent with the givens: a player's digit that repeats a given in its row,
//! column or box costs [`CLASH_COST`] more, and where the givens have one solution, a player's digit other than the
//! solution's in its cell costs [`MISTAKE_COST`] more. A player may err, so these are costs, not rules; but where a
//! small font draws two digits nearly alike (xterm's 6×13 bitmap `9` and `3`), the board names the mark the player
//! typed. A player's mark of no given's shape is named on its own (it constrains no other), which also keeps two
//! such digits of a small font from being named as one. A digit in a font none of the listed fonts resembles
//! closely is still named where its class is nearer that digit than any other name the rules allow.
//!
//! A class further than [`NOT_A_DIGIT`] from every name is no digit (a cursor's block, a picture); where no
//! assignment makes a legal board, the error names each doubtful class by its cells and candidate digits.
//! Nothing is ever guessed: a reading either satisfies the rules or is refused.

use crate::game::CellLayout;
use std::ops::ControlFlow;

use anyhow::{bail, Result};

use crate::games::sudoku::board::Grid;
use crate::games::sudoku::solver::for_each_solution;
use crate::vision::glyph::{Glyph, Weights};
use crate::vision::labelling::{self, Budget, Classes, Constraint};

/// Marks at most this far apart (the fonts' distance: coverage, and aspect) are one shape class.
const SAME_SHAPE: f64 = 0.03;
/// A mark further than this from every character of the fonts is no digit.
pub const NOT_A_DIGIT: f64 = 0.2;
/// The names a class may take: those whose mean distance is within this of its nearest one's.
const SLACK: f64 = 0.08;
/// What a naming costs more for each player's digit it makes repeat a given (a player's mistake is possible,
/// but less likely than a near guess that keeps to the rules).
const CLASH_COST: f64 = 0.05;
/// What a naming costs more for each player's digit it makes differ from the givens' only solution.
const MISTAKE_COST: f64 = 0.05;
/// A class at most this far from its nearest name (mean per mark), with the next at least this many times
/// further, is named clearly.
const CLEAR: f64 = 0.03;
const CLEAR_RATIO: f64 = 3.0;
/// At most this many names per class are tried.
const NAMES_TRIED: usize = 4;
/// The search gives up after this many steps (names tried), or this many complete namings checked with the
/// solver: a picture of noise that looks like a grid of marks costs milliseconds, not seconds.
const BUDGET: Budget = Budget { steps: 20_000, completions: 200 };

/// A digit-sized mark in a cell, and its distance to each name (index 0: a mark over an empty cell; 1–9 the
/// digits).
#[derive(Clone, Debug)]
pub struct Mark {
    pub cell: usize,
    pub glyph: Glyph,
    /// Its ink's height, in pixels.
    pub ink_height: usize,
    pub given: bool,
    pub costs: [f64; 10],
}

/// Marks at most this far apart are one drawing: the same character drawn again by the same client at the same
/// size (digits of a seven-segment display, one stroke apart, are further apart than this, though within
/// [`SAME_SHAPE`]).
const SAME_DRAWING: f64 = 0.015;

/// Whether two marks (glyph, ink height in pixels) are one drawing ([`SAME_DRAWING`]), at about the same height.
pub fn same_drawing((a, a_height): (&Glyph, usize), (b, b_height): (&Glyph, usize)) -> bool {
    a_height.abs_diff(b_height) * 6 <= a_height.max(b_height) && a.distance(b, &Weights::SHAPE) <= SAME_DRAWING
}

/// Whether two marks (glyph, ink height in pixels) are one shape: within [`SAME_SHAPE`] of each other, at about the
/// same height.
pub fn same_shape((a, a_height): (&Glyph, usize), (b, b_height): (&Glyph, usize)) -> bool {
    a_height.abs_diff(b_height) * 6 <= a_height.max(b_height) && a.distance(b, &Weights::SHAPE) <= SAME_SHAPE
}

/// A shape class: its marks (indices into the marks), and its cost per name.
struct Class {
    marks: Vec<usize>,
    /// Whether any of its marks is a given (such classes are named by the search; the others, the player's
    /// alone, by the givens once named).
    givens: bool,
    costs: [f64; 10],
    /// The names tried, least cost first.
    names: Vec<u8>,
}

/// What the givens as named must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Givens {
    /// A Sudoku with a solution (a board as any client shows it).
    Solvable,
    /// A Sudoku with exactly one solution (a puzzle as it is set: asked where the board alone cannot tell).
    OneSolution,
}

/// The name of every mark (0: an empty cell's mark), on a `size`×`size` board with boxes of `box_rows` ×
/// `box_cols`; an error where no naming makes a legal board whose givens are as `givens` asks.
pub fn name_marks(marks: &[Mark], box_rows: usize, box_cols: usize, givens: Givens) -> Result<Vec<u8>> {
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
    let searched = classes.iter().take_while(|c| c.givens).count();
    let costs: Vec<[f64; 10]> = classes.iter().map(|c| c.costs).collect();
    let candidates: Vec<Vec<usize>> = classes.iter().map(|c| c.names.iter().map(|&n| n as usize).collect()).collect();
    let mut rules =
        SudokuRules { marks, classes: &classes, searched, givens, box_rows, box_cols, board: vec![0; size * size] };
    let found = labelling::least_cost(&costs, &candidates, searched, &mut rules, BUDGET);
    match found.best {
        Some((_, names)) => {
            let names: Vec<u8> = names.into_iter().map(|n| n as u8).collect();
            let members = Classes { members: classes.into_iter().map(|c| c.marks).collect() };
            Ok(members.spread(&names, marks.len(), 0))
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
            let why = if found.out_of_budget { "no naming found within the search's budget" } else { "none" };
            Err(Unnamable {
                why: format!(
                    "the marks in the cells cannot be named as digits that make a Sudoku ({why}; rows and columns from \
                     0): {}; calibrate this client (`autoplay calibrate sudoku`)",
                    described.join("; ")
                ),
                cells: None,
            }
            .into())
        }
    }
}

/// A board whose lattice and marks were found, but whose marks no naming makes a Sudoku of (digits that break the
/// rules, or marks no font names): the error's kind, which the play loop asks about ([`crate::game::Shown::ClickUnread`]).
#[derive(Debug, thiserror::Error)]
#[error("{why}")]
pub struct Unnamable {
    why: String,
    /// The lattice whose marks these are, where the finder tells it: marks on another lattice than the board's
    /// (a popup's buttons and part of the board, found as a grid of their own) say nothing of the board's cells.
    pub cells: Option<CellLayout>,
}

impl Unnamable {
    /// The same failure, on the lattice `cells`.
    pub fn on(self, cells: &CellLayout) -> Unnamable {
        Unnamable { cells: Some(cells.clone()), ..self }
    }

    /// Whether these marks were found on the board laid out as `board` (the same cells, each boundary within a
    /// quarter of a cell of the board's).
    pub fn on_board(&self, board: &CellLayout) -> bool {
        self.cells.as_ref().is_some_and(|cells| {
            let near = |a: f64, b: f64, pitch: f64| (a - b).abs() <= pitch / 4.0;
            let (far_x, far_y) = (board.cols as f64, board.rows as f64);
            cells.rows == board.rows
                && cells.cols == board.cols
                && near(cells.origin_x, board.origin_x, board.pitch_x)
                && near(cells.origin_y, board.origin_y, board.pitch_y)
                && near(cells.origin_x + far_x * cells.pitch_x, board.origin_x + far_x * board.pitch_x, board.pitch_x)
                && near(cells.origin_y + far_y * cells.pitch_y, board.origin_y + far_y * board.pitch_y, board.pitch_y)
        })
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
    let classes = Classes { members: shape_classes(marks).into_iter().map(|c| c.marks).collect() };
    classes.class_of(marks.len()).into_iter().map(|k| k.expect("every mark is in a class")).collect()
}

/// Groups the marks into shape classes (see the module doc): the classes of givens first, largest first, then
/// the player's marks of no given's shape, one class each.
fn shape_classes(marks: &[Mark]) -> Vec<Class> {
    let alike = |a: usize, b: usize| {
        let (a, b) = (&marks[a], &marks[b]);
        same_shape((&a.glyph, a.ink_height), (&b.glyph, b.ink_height))
    };
    let mut classes = Classes::default();
    classes.found((0..marks.len()).filter(|&i| marks[i].given), alike);
    classes.members.sort_by_key(|g| std::cmp::Reverse(g.len()));
    let alone = classes.join((0..marks.len()).filter(|&i| !marks[i].given), alike);
    classes.members.extend(alone.into_iter().map(|m| vec![m]));
    let mark_costs: Vec<[f64; 10]> = marks.iter().map(|m| m.costs).collect();
    let class_costs = classes.costs(&mark_costs);
    classes
        .members
        .into_iter()
        .zip(class_costs)
        .map(|(marks_of, costs)| {
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
            let givens = marks_of.iter().any(|&m| marks[m].given);
            Class { marks: marks_of, givens, costs, names }
        })
        .collect()
}

/// The rules a naming keeps: the givens as named repeat no digit in a row, column or box, and have a solution (or
/// exactly one, as `givens` asks); the player's digits cost more where they break them
/// ([`SudokuRules::inconsistency`]).
struct SudokuRules<'a> {
    marks: &'a [Mark],
    classes: &'a [Class],
    /// The classes named by the search (those with givens: the first ones); the rest are the player's alone.
    searched: usize,
    givens: Givens,
    box_rows: usize,
    box_cols: usize,
    /// The givens named so far (0: none).
    board: Vec<u8>,
}

impl Constraint for SudokuRules<'_> {
    fn place(&mut self, k: usize, name: usize) -> bool {
        let (class, name) = (&self.classes[k], name as u8);
        if name != 0 && !self.fits(class, name) {
            return false;
        }
        for m in self.givens_of(class) {
            self.board[self.marks[m].cell] = name;
        }
        true
    }

    fn lift(&mut self, k: usize, _: usize) {
        for m in self.givens_of(&self.classes[k]) {
            self.board[self.marks[m].cell] = 0;
        }
    }

    /// The givens must have a solution (one, where asked); the player's digits are held to them: in the classes
    /// of givens as named, and in each class of the player's alone by the name of least cost with what it costs
    /// to differ from the givens.
    fn complete(&mut self, names: &mut [usize]) -> Option<f64> {
        let solution = self.givens_solution()?;
        if self.givens == Givens::OneSolution && solution.is_none() {
            return None;
        }
        let mut cost = 0.0;
        for (j, &name) in names.iter().enumerate().take(self.searched) {
            cost += self.inconsistency(&self.classes[j], name as u8, solution.as_deref());
        }
        for (j, name_of) in names.iter_mut().enumerate().skip(self.searched) {
            let class = &self.classes[j];
            let with = |n: u8| class.costs[n as usize] + self.inconsistency(class, n, solution.as_deref());
            let name = class.names.iter().copied().min_by(|&a, &b| with(a).total_cmp(&with(b))).unwrap_or(0);
            cost += with(name);
            *name_of = name as usize;
        }
        Some(cost)
    }
}

impl SudokuRules<'_> {
    /// The class's marks that are givens.
    fn givens_of(&self, class: &Class) -> Vec<usize> {
        class.marks.iter().copied().filter(|&m| self.marks[m].given).collect()
    }

    /// The cells of `cell`'s row, column and box (itself included).
    fn peers(&self, cell: usize) -> impl Iterator<Item = usize> {
        let (box_rows, box_cols) = (self.box_rows, self.box_cols);
        let size = box_rows * box_cols;
        let (row, col) = (cell / size, cell % size);
        let (r0, c0) = (row / box_rows * box_rows, col / box_cols * box_cols);
        (0..size)
            .map(move |c| row * size + c)
            .chain((0..size).map(move |r| r * size + col))
            .chain((0..size).map(move |j| (r0 + j / box_cols) * size + c0 + j % box_cols))
    }

    /// Whether `digit` in every given of `class` repeats no given placed in a row, column or box (nor another
    /// given of the class). The player's digits are not held to it: a player's mistake may clash.
    fn fits(&self, class: &Class, digit: u8) -> bool {
        let cells: Vec<usize> = self.givens_of(class).into_iter().map(|m| self.marks[m].cell).collect();
        for (i, &a) in cells.iter().enumerate() {
            if cells[..i].iter().any(|&b| self.peers(a).any(|p| p == b)) {
                return false;
            }
            if self.peers(a).any(|p| p != a && self.board[p] == digit) {
                return false;
            }
        }
        true
    }

    /// What naming `class` `name` costs for its player's digits that repeat a given, or differ from the givens'
    /// only `solution` (where they have one).
    fn inconsistency(&self, class: &Class, name: u8, solution: Option<&[u8]>) -> f64 {
        if name == 0 {
            return 0.0;
        }
        class
            .marks
            .iter()
            .filter(|&&m| !self.marks[m].given)
            .map(|&m| {
                let cell = self.marks[m].cell;
                let clashes = self.peers(cell).any(|p| p != cell && self.board[p] == name);
                let differs = solution.is_some_and(|s| s[cell] != name);
                CLASH_COST * clashes as u8 as f64 + MISTAKE_COST * differs as u8 as f64
            })
            .sum()
    }

    /// `None` where the givens as named have no solution; else their solution where it is the only one.
    fn givens_solution(&self) -> Option<Option<Vec<u8>>> {
        let grid = Grid::from_cells(self.box_rows, self.box_cols, self.board.clone()).ok()?;
        let mut first = None;
        let count = for_each_solution(&grid, 2, |cells| {
            first.get_or_insert_with(|| cells.to_vec());
            ControlFlow::Continue(())
        });
        match count {
            0 => None,
            1 => Some(first),
            _ => Some(None),
        }
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
        given_mark(cell, coverage, costs)
    }

    /// A given's mark in `cell`, of a digit's height and aspect.
    fn given_mark(cell: usize, coverage: Vec<f32>, costs: [f64; 10]) -> Mark {
        let glyph = Glyph { coverage, aspect: 0.6, height: 0.0, centre_y: 0.0 };
        Mark { cell, glyph, ink_height: 20, given: true, costs }
    }

    /// Two shapes whose fonts' nearest digit is the same ('1'), in one row: the rules name the one nearer '7' as
    /// '7'. Shapes alike are one class and take one name.
    #[test]
    fn two_shapes_the_fonts_both_take_for_one_digit_are_told_apart_by_the_rules() {
        let marks = [mark(0, 0, 1, 7, 0.05), mark(1, 1, 1, 7, 0.01), mark(30, 1, 1, 7, 0.01), mark(40, 2, 5, 6, 0.1)];
        let named = name_marks(&marks, 3, 3, Givens::Solvable).unwrap();
        assert_eq!(named, vec![1, 7, 7, 5]);
    }

    /// Where the fonts' nearest digits make a legal board they are the names, however far (within the limit).
    #[test]
    fn the_fonts_nearest_digits_stand_where_the_board_is_legal() {
        let mut far = mark(0, 0, 9, 8, 0.001);
        far.costs = far.costs.map(|c| c + 0.05);
        let marks = [far, mark(10, 1, 3, 8, 0.02)];
        assert_eq!(name_marks(&marks, 3, 3, Givens::Solvable).unwrap(), vec![9, 3]);
    }

    /// No legal naming: an error naming the cells and the candidates; a mark far from every digit: refused.
    #[test]
    fn marks_that_cannot_be_named_are_refused_with_their_cells() {
        // Three shapes in one row, each near only '4'.
        let marks = [mark(0, 0, 4, 4, 0.0), mark(1, 1, 4, 4, 0.0), mark(2, 2, 4, 4, 0.0)];
        let error = name_marks(&marks, 3, 3, Givens::Solvable).unwrap_err().to_string();
        assert!(error.contains("cannot be named as digits that make a Sudoku"), "{error}");
        assert!(error.contains("(0, 1)") && error.contains("'4'"), "{error}");

        let mut block = mark(5, 3, 2, 3, 0.0);
        block.costs = [0.45; 10];
        let error = name_marks(&[block], 3, 3, Givens::Solvable).unwrap_err().to_string();
        assert!(error.contains("cell (row 0, column 5) shows a mark that is no digit"), "{error}");
    }

    /// The givens of a puzzle with one solution (fixtures/sudoku-terminal/board.txt), each a mark of its digit's own
    /// shape, and its solution.
    const PUZZLE: &str = ".7..9..8...51.26..8.......36.4...3.5...4.7...2.7...8.17.......6..67.89...4..6..5.";
    const SOLUTION: &str = "172396584435182697869574123614829375583417269297635841728951436356748912941263758";

    fn puzzle_marks() -> Vec<Mark> {
        PUZZLE
            .bytes()
            .enumerate()
            .filter(|(_, b)| b.is_ascii_digit())
            .map(|(cell, b)| {
                let digit = b - b'0';
                let mut coverage = vec![0.0; 256];
                coverage[digit as usize * 25..digit as usize * 25 + 25].fill(1.0);
                let mut costs = [0.3; 10];
                costs[digit as usize] = 0.02;
                given_mark(cell, coverage, costs)
            })
            .collect()
    }

    /// A player's mark of a shape of its own (a plain digit where the givens are bold) in `cell`, nearest to
    /// `nearest`, with `second` `gap` further.
    fn players(cell: usize, nearest: u8, second: u8, gap: f64) -> Mark {
        let mut mark = mark(cell, 0, nearest, second, gap);
        mark.glyph.coverage = vec![0.5; 256];
        mark.given = false;
        mark
    }

    fn solution_at(cell: usize) -> u8 {
        SOLUTION.as_bytes()[cell] - b'0'
    }

    /// Where the fonts find a player's digit nearly as near another digit as the one the givens' only solution has
    /// there, it is the solution's; where the fonts see another digit clearly, it is read as the player's mistake.
    #[test]
    fn a_players_digit_is_named_by_the_solution_only_where_the_fonts_are_unsure() {
        // Row 2, column 2 (cell 10): the solution has 3; 8 is the fonts' nearest, 3 the next.
        assert_eq!(solution_at(10), 3);
        let mut marks = puzzle_marks();
        marks.push(players(10, 9, 3, 0.02));
        let named = name_marks(&marks, 3, 3, Givens::Solvable).unwrap();
        assert_eq!(named.last(), Some(&3), "near: the solution's digit");
        for (mark, name) in marks.iter().zip(&named).filter(|(m, _)| m.given) {
            assert_eq!(*name, solution_at(mark.cell), "the givens keep their names");
        }

        let mut marks = puzzle_marks();
        marks.push(players(10, 9, 3, 0.2));
        assert_eq!(name_marks(&marks, 3, 3, Givens::Solvable).unwrap().last(), Some(&9), "clear: the mistake");
    }

    /// Givens asked to have one solution: a given whose fonts' nearest digit leaves the puzzle with many is named
    /// as the next digit that leaves it one; where none does, the naming is refused.
    #[test]
    fn givens_of_one_solution_choose_between_near_names() {
        // The given 9 of row 1, column 5 (cell 4), of a shape of its own, nearest 3 (legal there, but the puzzle
        // would have other solutions), then 9.
        let mut marks = puzzle_marks();
        let nine = marks.iter().position(|m| m.cell == 4).unwrap();
        marks[nine].glyph.coverage = vec![0.25; 256];
        marks[nine].costs[3] = 0.01;
        let named = name_marks(&marks, 3, 3, Givens::Solvable).unwrap();
        assert_eq!(named[nine], 3, "any solution: the nearest legal digit");
        let named = name_marks(&marks, 3, 3, Givens::OneSolution).unwrap();
        assert_eq!(named[nine], 9, "one solution");

        // Without that given the puzzle has many solutions, whatever the other givens are named.
        marks.remove(nine);
        assert!(name_marks(&marks, 3, 3, Givens::Solvable).is_ok());
        assert!(name_marks(&marks, 3, 3, Givens::OneSolution).is_err());
    }
}
