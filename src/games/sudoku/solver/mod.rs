//! The solving API over [`Grid`]: 9×9 grids with 3×3 boxes go to the bitboard solver
//! (`solver9`), every other shape to the bitmask solver (`generic`). `reference` keeps the
//! previous 9×9 solver, which the tests and `autoplay bench sudoku --compare` check the fast
//! one against.

use std::ops::ControlFlow;

pub mod generic;
pub mod reference;
pub mod solver9;

use super::board::Grid;
use solver9::Engine;

fn is_classic(grid: &Grid) -> bool {
    grid.box_shape() == (3, 3)
}

/// Calls `f` with the cells (row-major, values 1..=N) of each solution, in search order,
/// until `limit` solutions were seen or `f` breaks. Returns how many were seen. Clashing
/// givens have no solution.
pub fn for_each_solution(grid: &Grid, limit: u64, mut f: impl FnMut(&[u8]) -> ControlFlow<()>) -> u64 {
    search(grid, limit, 0, Engine::best(), &mut f)
}

/// As [`for_each_solution`] with a chosen 9×9 engine (other sizes ignore it).
pub fn for_each_solution_with(
    grid: &Grid,
    limit: u64,
    engine: Engine,
    mut f: impl FnMut(&[u8]) -> ControlFlow<()>,
) -> u64 {
    search(grid, limit, 0, engine, &mut f)
}

fn search(grid: &Grid, limit: u64, seed: u64, engine: Engine, f: &mut dyn FnMut(&[u8]) -> ControlFlow<()>) -> u64 {
    if is_classic(grid) {
        solver9::search_seeded(engine, grid.cells(), limit, seed, f)
    } else {
        let (r, c) = grid.box_shape();
        generic::search(r, c, grid.cells(), limit, seed, f)
    }
}

/// Number of solutions, counting stops at `limit` (limit 2 answers 0, 1 or "more than one").
pub fn count_solutions(grid: &Grid, limit: u64) -> u64 {
    search(grid, limit, 0, Engine::best(), &mut |_| ControlFlow::Continue(()))
}

/// The first solution found, if any (there may be others: see [`analyse`]).
pub fn solve(grid: &Grid) -> Option<Grid> {
    analyse(grid, 1).solution
}

/// A solution drawn by a randomised search order (`seed` picks it; not uniform over the
/// solutions, but every solution can come out).
pub fn sample_solution(grid: &Grid, seed: u64) -> Option<Grid> {
    let mut out = None;
    search(grid, 1, seed.max(1), Engine::best(), &mut |cells| {
        out = Some(cells.to_vec());
        ControlFlow::Break(())
    });
    let (r, c) = grid.box_shape();
    out.map(|cells| Grid::from_cells(r, c, cells).expect("solver output is a valid grid"))
}

/// The first solution and the number of solutions up to `limit`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    pub solution: Option<Grid>,
    /// Solutions counted, at most the limit.
    pub count: u64,
    pub limit: u64,
}

impl Analysis {
    /// "no solution", "1 solution", "more than one solution" (limit 2) or "N solutions" /
    /// "at least N solutions" when the limit was reached.
    pub fn describe(&self) -> String {
        match (self.count, self.limit) {
            (0, _) => "no solution".to_string(),
            (1, l) if l > 1 => "1 solution (unique)".to_string(),
            (1, _) => "at least 1 solution".to_string(),
            (2, 2) => "more than one solution".to_string(),
            (n, l) if n >= l => format!("at least {n} solutions (counting stopped at the limit)"),
            (n, _) => format!("{n} solutions"),
        }
    }
}

/// Searches for solutions up to `limit` (at least 1), keeping the first.
pub fn analyse(grid: &Grid, limit: u64) -> Analysis {
    let limit = limit.max(1);
    let mut first: Option<Vec<u8>> = None;
    let count = search(grid, limit, 0, Engine::best(), &mut |cells| {
        if first.is_none() {
            first = Some(cells.to_vec());
        }
        ControlFlow::Continue(())
    });
    let (r, c) = grid.box_shape();
    let solution = first.map(|cells| Grid::from_cells(r, c, cells).expect("solver output is a valid grid"));
    Analysis { solution, count, limit }
}
