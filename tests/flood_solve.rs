//! Solving every captured sgt-flood board: a valid solution, no longer than the game's own solver's, and the true
//! minimum on small boards.

mod common;

use std::time::{Duration, Instant};

use autoplay::game::SolveLimits;
use autoplay::games::flood::solve_board;
use common::*;

#[test]
fn every_fixture_board_is_solved_no_worse_than_the_games_own_solver() {
    let themes = flood_themes();
    for fixture in flood_fixtures() {
        let theme = themes.iter().find(|t| t.theme == "sgt-default").unwrap();
        let board = theme.board_of(&fixture.id).unwrap();
        let limits = SolveLimits { deadline: Some(Instant::now() + Duration::from_secs(20)) };
        let plan = solve_board(&board, &limits);
        let moves: Vec<u8> = plan.moves.iter().map(|m| m.0).collect();
        assert!(solves(&board, &moves), "{}: the solution does not flood the board", fixture.name);
        assert!(
            moves.len() as u32 <= fixture.game_solver_moves,
            "{}: {} moves, but sgt-flood's own solver needs only {}",
            fixture.name,
            moves.len(),
            fixture.game_solver_moves
        );
        if board.width * board.height <= 64 {
            assert!(plan.optimal, "{}: small board not proven optimal", fixture.name);
            assert_eq!(moves.len(), brute_force_minimum(&board), "{}: not the true minimum", fixture.name);
        }
    }
}
