//! The fast 9×9 solver: bit-parallel propagation on digit × band bitboards, triad reasoning
//! across digits, and a DPLL-style binary search branching on band configurations.
//!
//! # Representation
//!
//! For each digit `d` and each band `b` (three rows of boxes) a 27-bit word holds the cells
//! of the band where `d` may still go: bit `9·rr + c` is row `3b + rr`, column `c`. The
//! whole state is 27 such words, a 27-bit "placed" word per band and the digits whose words
//! changed since they were last propagated: 176 bytes with alignment, copied when the search
//! branches. A digit's three words sit in one 16-byte row (the fourth lane kept zero), so that
//! they load as one vector (`V4`), and two digits' as one AVX2 vector (`V8`).
//!
//! The start state is built a digit at a time from the givens' bit masks: a given's row, box and
//! column leave its digit (except the given itself); two givens of a digit in one row, column or box
//! are a clash (no solution).
//!
//! # Propagation
//!
//! Per digit whose words changed, all three bands at once (the lanes of a `V4`), without branches;
//! the SIMD engines take the changed digits two at a time, side by side in a `V8` (their row singles
//! wait for `place_pending`, so the two chains are independent and overlap; 17-clue 15% and
//! magictour 10% less time than one digit at a time):
//! * **Band**: inside a band the digit takes one cell per row and per box, i.e. a
//!   permutation row → box (one of six *configurations*). The 9-bit pattern of non-empty
//!   mini-rows (row × box) is looked up in a table of the mini-rows that lie on some
//!   perfect matching of that 3×3 bipartite graph; the others are erased (pointing pairs,
//!   claiming, hidden singles in rows and boxes all follow). No matching → contradiction.
//! * **Stacks**: every band uses one column per stack. If a band's candidates in a stack
//!   lie in a single column, that column is erased from the other bands; if a column has
//!   candidates in only one band, that band's other columns of the stack are erased
//!   (hidden singles in columns, column claiming). A column with no candidate at all, or a
//!   band owning two columns of one stack alone, is a contradiction. (For a 3×3 graph these
//!   single rules reach the same fixed point as the matching table: a full matching check
//!   of the stacks was tried and deduced nothing more.)
//! * Rows of a band left with one candidate place the digit there: the cells are erased
//!   from the other digits' words (the digit's own words already exclude their peers: at the
//!   fixed point the band rule leaves the digit only that cell in its box, so the stack rule has
//!   erased its column from the other bands). Such rows are found by one subtraction of 1 at
//!   each row's first bit: every row has a candidate there, so the borrow stays in the row. The
//!   rows found while the dirty digits are propagated are placed together when they are done (a
//!   cell single in two digits' rows is a contradiction).
//!
//! Across digits:
//! * A bit-sliced census of the nine words per band gives the cells with no candidate
//!   (contradiction) and with one (naked singles: placed, all of one digit in a band at
//!   once; two of them that see each other erase each other, which the census then finds).
//! * **Triads**, when nothing else is left: the three cells of a mini-row (a row within a
//!   box) hold three different digits, and so do those of a mini-column. Per mini-line a
//!   bit-sliced count of the digits that may be there and of those certain to be there (the
//!   digit's only mini-line in its row, or column, within the box): fewer than three
//!   possible, or more than three certain, is a contradiction; exactly three possible puts
//!   each there (erased from the rest of its line and box); three certain erase the other
//!   digits from the three cells.
//!
//! Every rule only erases candidates that cannot be in any solution, so no solution is
//! lost; a state is reported solved only when every cell is placed and the last census
//! found no empty cell, and a placement always erases its peers, so what is reported is a
//! solution. The tests and `autoplay bench sudoku --compare` check the answers against the
//! previous solver (`reference`).
//!
//! # Search
//!
//! Binary branching (see `choose_branch`): among the three bands and the three stacks, the one
//! with the fewest configurations summed over its digits (in a stack a digit's configuration is
//! its column-to-band matching, counted from its candidate columns), and in it the digit with
//! the fewest (at least two); the branch is "the digit lies in this mini-row" (or mini-column;
//! a cell when it has one candidate) on a copy, then "it does not" in place. Choosing by band
//! configurations instead of the first cell with two candidates roughly halves the guesses on
//! hard puzzles; counting the stacks too (when no band is nearly fixed) takes a sixth off them
//! again (forum hardest 11+: 77 to 63 guesses on its first 3,000). Counting stops at the caller's
//! limit.
//!
//! Until the search first meets a dead end (a branch whose propagation finds a contradiction), it
//! branches on a cell instead (one of two candidates if any, else of the fewest), its smallest
//! candidate first. A puzzle with many solutions seldom fails a guess, and there a cell is cheaper to
//! choose and to place and takes fewer guesses (serg benchmark, all of whose puzzles have several
//! solutions: 6.93 to 6.40 guesses, 20% less time); a puzzle that fails a guess is constrained, and
//! the configurations take over from there (magictour 8.92 to 10.1 guesses, 8% more time; forum
//! hardest 11+ 62.9 to 70.5, 10% more; 17-clue 4% more; enumerating all solutions as the two-player
//! engine does, 3% more).
//!
//! # SIMD
//!
//! A digit's three band words are three lanes of a 128-bit vector, `V4` (SSE2, part of the x86-64
//! baseline, so every engine uses it; plain arrays on other targets). The band rule's table is looked
//! up per lane. The band and stack rules go over the `Lanes` trait too, a `V4` (one digit) in the
//! scalar engine and a `V8` (two) in the SIMD ones. The work over all nine digits (the start state, the
//! triads, erasing placed cells from every digit) goes over the `Lanes` trait a group of digits at a
//! time: one digit a `V4` in the scalar engine, two a `V8` (AVX2) in the SIMD engine, whose bit-sliced
//! counters then add their two halves.
//!
//! What else differs per instruction set is behind the `Isa` trait: the census (SSE4.1 on one
//! 128-bit vector per digit, or plain code) and a band word's mini-row pattern (BMI2 `pext`, or
//! three table look-ups). The search is compiled three times by a macro: once plainly, once inside
//! `#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,sse4.1")]` with the SIMD implementations
//! inlined (all code on vectors is `#[inline(always)]`: a function left out of line would be
//! compiled without the features, every vector operation a call), and once more with AVX-512VL
//! added to those features (the same source; the compiler folds the chains of and, or and and-not
//! into three-input `vpternlogd`s: the search's machine code is 11% shorter); the variant is picked at
//! run time with `is_x86_feature_detected!`. [`Engine`] selects one explicitly (tests compare them all).
//!
//! # Files
//!
//! `engine.rs` the engines and the detection of their CPU features; `bits.rs` the band word's layout and the
//! scalar operations on it; `tables.rs` the tables built at compile time; `lanes/` `V4`, `V8`, the `Lanes` trait
//! and the bit-sliced counters, per instruction set; `isa.rs` the `Isa` trait; `census.rs` the census;
//! `state.rs` the state; `start.rs` the start state; `propagate.rs` the propagation; `triads.rs` the triads;
//! `search.rs` the branching, the search and the entry points.

// Bands index several parallel arrays at once; index loops read more plainly here.
#![allow(clippy::needless_range_loop)]

mod bits;
mod census;
mod engine;
mod isa;
mod lanes;
mod propagate;
mod search;
mod start;
mod state;
mod tables;
mod triads;

pub use engine::{avx512_available, simd_available, Engine};
pub use search::{count_with, guesses_so_far, search_seeded, search_with, solve_count, solve_with};
