//! Tests of the board, the solver (against an independent plain minimax),
//! the text format, the commands and the terminal game.
//!
//! The reference minimax below shares no code with the solver: it keeps
//! the board as arrays of bools, blows seeds with explicit loops over
//! cells and steps, and searches every move without a table, symmetry,
//! ordering or pruning (only `any`/`all` short-circuits). Small boards use
//! fewer turns per side (`turns` from 1 to 8) so that it finishes.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::board::{transform_dir, Cell, Dir, Geometry, Move, Position};
use super::solver::{SolveOptions, Solver, Table};
use super::{play_command, solve_command, DandelionsError, Side};

// ---------------------------------------------------------------------
// Reference: plain minimax on arrays of bools.

#[derive(Clone)]
struct RefGame {
    n: usize,
    turns: usize,
    /// `[row][col]`: seeded (flowers count as seeded).
    seed: Vec<Vec<bool>>,
    flower: Vec<Vec<bool>>,
    /// Directions already used, indexed N, NE, E, SE, S, SW, W, NW.
    used: [bool; 8],
    placed: usize,
    blown: usize,
}

const STEPS: [(i32, i32); 8] = [(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)];

impl RefGame {
    fn from_position(pos: &Position) -> RefGame {
        let n = pos.size();
        let mut g = RefGame {
            n,
            turns: pos.turns(),
            seed: vec![vec![false; n]; n],
            flower: vec![vec![false; n]; n],
            used: [false; 8],
            placed: 0,
            blown: 0,
        };
        for r in 0..n {
            for c in 0..n {
                let bit = 1u64 << (r * n + c);
                g.seed[r][c] = pos.seeds() & bit != 0;
                g.flower[r][c] = pos.flowers() & bit != 0;
                if g.flower[r][c] {
                    g.placed += 1;
                }
            }
        }
        for d in 0..8 {
            g.used[d] = pos.winds_left() & (1 << d) == 0;
            if g.used[d] {
                g.blown += 1;
            }
        }
        g
    }

    fn place(&self, r: usize, c: usize) -> RefGame {
        let mut g = self.clone();
        g.flower[r][c] = true;
        g.seed[r][c] = true;
        g.placed += 1;
        g
    }

    fn blow(&self, d: usize) -> RefGame {
        let mut g = self.clone();
        let (dr, dc) = STEPS[d];
        for r in 0..self.n {
            for c in 0..self.n {
                if !self.flower[r][c] {
                    continue;
                }
                let (mut rr, mut cc) = (r as i32 + dr, c as i32 + dc);
                while rr >= 0 && cc >= 0 && (rr as usize) < self.n && (cc as usize) < self.n {
                    g.seed[rr as usize][cc as usize] = true;
                    rr += dr;
                    cc += dc;
                }
            }
        }
        g.used[d] = true;
        g.blown += 1;
        g
    }

    fn all_covered(&self) -> bool {
        self.seed.iter().all(|row| row.iter().all(|&s| s))
    }

    /// Do the dandelions win with perfect play?
    fn dandelions_win(&self) -> bool {
        if self.blown == self.turns {
            return self.all_covered();
        }
        if self.placed == self.blown {
            (0..self.n).any(|r| (0..self.n).any(|c| !self.flower[r][c] && self.place(r, c).dandelions_win()))
        } else {
            (0..8).all(|d| self.used[d] || self.blow(d).dandelions_win())
        }
    }
}

fn ref_winner(pos: &Position) -> Side {
    if RefGame::from_position(pos).dandelions_win() {
        Side::Dandelions
    } else {
        Side::Wind
    }
}

fn small_options() -> SolveOptions {
    SolveOptions { table_bytes: 1 << 20 }
}

/// Plays `plies` random legal moves from the empty board.
fn random_position(rng: &mut StdRng, size: usize, turns: usize, plies: usize) -> Position {
    let mut pos = Position::empty(size, turns).unwrap();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.random_range(0..moves.len())];
        pos = pos.play(mv).unwrap();
    }
    pos
}

// ---------------------------------------------------------------------
// Board mechanics.

#[test]
fn spread_by_shifts_equals_explicit_loops() {
    for n in 2..=6 {
        let g = Geometry::new(n);
        for cell in 0..n * n {
            for (d, &(dr, dc)) in STEPS.iter().enumerate() {
                let mut expected = 0u64;
                let (mut r, mut c) = ((cell / n) as i32 + dr, (cell % n) as i32 + dc);
                while r >= 0 && c >= 0 && (r as usize) < n && (c as usize) < n {
                    expected |= 1 << (r as usize * n + c as usize);
                    r += dr;
                    c += dc;
                }
                assert_eq!(g.spread(1 << cell, d), expected, "n={n} cell={cell} d={d}");
                assert_eq!(super::board::spread_on(n, 1 << cell, Dir::from_index(d)), expected);
                assert_eq!(g.ray(cell, d), expected);
            }
        }
        // Several flowers at once: the union of their single spreads.
        let mut rng = StdRng::seed_from_u64(n as u64);
        for _ in 0..200 {
            let flowers = rng.random::<u64>() & g.full();
            for d in 0..8 {
                let union = (0..n * n).filter(|&i| flowers & (1 << i) != 0).fold(0, |acc, i| acc | g.spread(1 << i, d));
                assert_eq!(g.spread(flowers, d), union);
            }
        }
    }
}

#[test]
fn symmetries_commute_with_spreading() {
    for n in 2..=6 {
        let g = Geometry::new(n);
        let mut rng = StdRng::seed_from_u64(100 + n as u64);
        for t in 0..8 {
            // A bijection of the cells.
            let mut image = 0u64;
            for i in 0..n * n {
                image |= g.transform(t, 1 << i);
            }
            assert_eq!(image, g.full());
            for _ in 0..50 {
                let flowers = rng.random::<u64>() & g.full();
                for d in Dir::ALL {
                    let td = transform_dir(t, d);
                    assert_eq!(
                        g.transform(t, g.spread(flowers, d.index())),
                        g.spread(g.transform(t, flowers), td.index()),
                        "n={n} t={t} d={d}"
                    );
                }
            }
        }
        // The 8 maps are distinct permutations of the cells.
        let perms: std::collections::HashSet<Vec<u64>> =
            (0..8).map(|t| (0..n * n).map(|i| g.transform(t, 1 << i)).collect()).collect();
        assert_eq!(perms.len(), 8);
    }
}

#[test]
fn symmetric_positions_have_the_same_value() {
    let mut rng = StdRng::seed_from_u64(7);
    let mut solver = Solver::new(5, 7, &small_options());
    for _ in 0..60 {
        let plies = rng.random_range(4..12);
        let pos = random_position(&mut rng, 5, 7, plies);
        let expected = solver.winner(&pos);
        for t in 0..8 {
            let image = pos.transformed(t);
            // A fresh solver, so the table cannot answer from the original.
            let mut fresh = Solver::new(5, 7, &small_options());
            assert_eq!(fresh.winner(&image), expected, "{pos}\nsymmetry {t}:\n{image}");
        }
    }
}

// ---------------------------------------------------------------------
// Solver against the reference.

#[test]
fn agrees_with_plain_minimax_on_late_5x5_positions() {
    let mut rng = StdRng::seed_from_u64(1);
    let mut solver = Solver::new(5, 7, &small_options());
    let mut winners = [0; 2];
    for i in 0..400 {
        // 3 turns left each (or 2½: wind to move).
        let plies = 8 + (i % 2);
        let pos = random_position(&mut rng, 5, 7, plies);
        let expected = ref_winner(&pos);
        assert_eq!(solver.winner(&pos), expected, "\n{pos}");
        winners[(expected == Side::Dandelions) as usize] += 1;
    }
    // Both outcomes occur, so the comparison means something.
    assert!(winners[0] > 20 && winners[1] > 20, "{winners:?}");
}

#[test]
fn agrees_with_plain_minimax_four_turns_left() {
    let mut rng = StdRng::seed_from_u64(2);
    let mut solver = Solver::new(5, 7, &small_options());
    for _ in 0..4 {
        let pos = random_position(&mut rng, 5, 7, 6);
        assert_eq!(solver.winner(&pos), ref_winner(&pos), "\n{pos}");
    }
}

#[test]
fn agrees_with_plain_minimax_on_small_boards() {
    // Whole games from the empty board, and every first move.
    for (n, max_turns) in [(2, 4), (3, 4), (4, 3)] {
        for turns in 1..=max_turns {
            let start = Position::empty(n, turns).unwrap();
            let mut solver = Solver::new(n, turns, &small_options());
            assert_eq!(solver.winner(&start), ref_winner(&start), "{n}x{n}, {turns} turns");
            for (mv, w) in solver.move_values(&start) {
                let next = start.play(mv).unwrap();
                assert_eq!(w, ref_winner(&next), "{n}x{n}, {turns} turns, first move {mv}");
            }
        }
    }
    // Late positions of longer games on 3x3, 4x4 and 6x6, sampled so that
    // both winners are well represented (random play favours one side).
    let mut rng = StdRng::seed_from_u64(3);
    for (n, turns, plies, quota) in [
        (3, 5, 5, 20),
        (3, 6, 7, 20),
        (3, 7, 11, 20),
        (4, 6, 6, 25),
        (4, 6, 7, 25),
        (4, 7, 9, 25),
        (4, 8, 13, 25),
        (6, 8, 11, 25),
        (6, 8, 12, 25),
    ] {
        let mut solver = Solver::new(n, turns, &small_options());
        let mut winners = [0; 2];
        for _ in 0..quota * 40 {
            let pos = random_position(&mut rng, n, turns, plies);
            let expected = ref_winner(&pos);
            let slot = (expected == Side::Dandelions) as usize;
            if winners[slot] >= quota {
                continue;
            }
            assert_eq!(solver.winner(&pos), expected, "\n{pos}");
            winners[slot] += 1;
            if winners == [quota, quota] {
                break;
            }
        }
        eprintln!("{n}x{n}, {turns} turns, after {plies} plies: wins for wind / dandelions {winners:?}");
        assert!(winners[0] >= 3 && winners[1] >= 3, "{n}x{n} {turns} {plies}: {winners:?}");
    }
}

#[test]
fn every_move_value_agrees_with_minimax() {
    let mut rng = StdRng::seed_from_u64(4);
    let mut solver = Solver::new(5, 7, &small_options());
    for i in 0..40 {
        let pos = random_position(&mut rng, 5, 7, 9 + (i % 2));
        for (mv, w) in solver.move_values(&pos) {
            assert_eq!(w, ref_winner(&pos.play(mv).unwrap()), "\n{pos}after {mv}");
        }
        let (best, winner) = solver.best_move(&pos);
        assert_eq!(winner, ref_winner(&pos));
        let mover = pos.to_move().unwrap();
        if winner == mover {
            assert_eq!(ref_winner(&pos.play(best.unwrap()).unwrap()), mover);
        }
    }
}

#[test]
fn a_tiny_table_gives_the_same_answers() {
    // 32 buckets: constant replacement, the results must not change.
    let mut rng = StdRng::seed_from_u64(5);
    let mut tiny = Solver::new(5, 7, &SolveOptions { table_bytes: 512 });
    let mut big = Solver::new(5, 7, &small_options());
    for _ in 0..100 {
        let plies = rng.random_range(6..12);
        let pos = random_position(&mut rng, 5, 7, plies);
        assert_eq!(tiny.winner(&pos), big.winner(&pos), "\n{pos}");
    }
}

#[test]
fn table_is_exact() {
    // Keys differing anywhere never alias, whatever the bucket.
    let mut t = Table::new(58, 1 << 10);
    let mut rng = StdRng::seed_from_u64(6);
    let keys: Vec<u128> = (0..5000).map(|_| rng.random::<u64>() as u128 & ((1 << 58) - 1)).collect();
    for &k in &keys {
        t.store(k, k & 1 == 1, 5);
        assert_eq!(t.probe(k), Some(k & 1 == 1));
    }
    let mut found = 0;
    for &k in &keys {
        if let Some(v) = t.probe(k) {
            assert_eq!(v, k & 1 == 1);
            found += 1;
        }
    }
    assert!(found <= 128);
    // 80-bit keys (6x6) too.
    let mut t = Table::new(80, 1 << 10);
    assert!(t.bytes() >= 16 << 21);
    for _ in 0..2000 {
        let k = (rng.random::<u128>()) & ((1 << 80) - 1);
        t.store(k, true, 3);
        assert_eq!(t.probe(k), Some(true));
        assert_eq!(t.probe(k ^ 1 << 79), None);
    }
}

// ---------------------------------------------------------------------
// Puzzles checked by hand.

#[test]
fn one_placement_wins_whatever_the_wind() {
    // Reached by a1 SE c3 NW e5 E a5 NE e1 SW c2 W. Dandelions place their
    // 7th flower, then the wind blows N or S. Missing: e2, a4, c4, e4.
    // * N: a5 seeds a4, e5 seeds e4 and e2; c4 needs a flower on c4 or c5
    //   (nothing below it reaches it otherwise).
    // * S: a1 seeds a4, e1 seeds e2 and e4, c3 seeds c4.
    // So exactly c4 and c5 win.
    let puzzle = "\
*~~~*
~~*~.
~~*~~
.~.~.
*~~~*
wind: N S
";
    let pos = Position::parse(puzzle).unwrap();
    assert_eq!(pos.to_move(), Some(Side::Dandelions));
    let mut solver = Solver::new(5, 7, &small_options());
    let (best, winner) = solver.best_move(&pos);
    assert_eq!(winner, Side::Dandelions);
    let mut wins: Vec<String> = solver
        .move_values(&pos)
        .into_iter()
        .filter(|(_, w)| *w == Side::Dandelions)
        .map(|(m, _)| m.to_string())
        .collect();
    wins.sort();
    assert_eq!(wins, ["c4", "c5"]);
    assert!(matches!(best, Some(Move::Place(c)) if c.col == 2 && c.row >= 3));
}

#[test]
fn every_wind_left_leaves_a_cell_uncovered() {
    // All 7 flowers are down; the wind's last blow is SW or NW. Only b5 is
    // empty. SW reaches b5 only from c4, d3 or e2 (no flowers there); NW
    // reaches it from nowhere (b5 is on the south edge). The wind wins
    // whatever it blows.
    let text = "\
~*~~~
~~~*~
**~~*
~~~~*
~.~*~
wind: SW NW
";
    let pos = Position::parse(text).unwrap();
    assert_eq!(pos.to_move(), Some(Side::Wind));
    let mut solver = Solver::new(5, 7, &small_options());
    assert_eq!(solver.winner(&pos), Side::Wind);
    assert_eq!(ref_winner(&pos), Side::Wind);
    let values = solver.move_values(&pos);
    assert_eq!(values.len(), 2);
    assert!(values.iter().all(|(_, w)| *w == Side::Wind));
}

#[test]
fn wind_picks_the_only_winning_blow() {
    // Same game as the first puzzle, but the 7th flower went to a2: N
    // leaves c4 empty (no flower below it), S covers everything.
    let text = "\
*~~~*
*~*~.
~~*~~
.~.~.
*~~~*
wind: N S
";
    let pos = Position::parse(text).unwrap();
    assert_eq!(pos.to_move(), Some(Side::Wind));
    let mut solver = Solver::new(5, 7, &small_options());
    let (best, winner) = solver.best_move(&pos);
    assert_eq!(winner, Side::Wind);
    assert_eq!(best, Some(Move::Blow(Dir::N)));
    assert_eq!(ref_winner(&pos.play(Move::Blow(Dir::S)).unwrap()), Side::Dandelions);
}

#[test]
fn start_position_is_a_dandelions_win() {
    let outcome = super::solve(&Position::start(), &SolveOptions::default());
    assert_eq!(outcome.winner, Side::Dandelions);
    assert_eq!(outcome.to_move, Some(Side::Dandelions));
    // The move found is indeed winning.
    let next = Position::start().play(outcome.best_move.unwrap()).unwrap();
    let mut solver = Solver::new(5, 7, &SolveOptions::default());
    assert_eq!(solver.winner(&next), Side::Dandelions);
}

/// Plays the solver's move for `winner` and every legal move for the
/// other side, replaying each game on the reference board (whose
/// mechanics are checked against the bitboards at every step); every game
/// must end with `winner` winning by the reference's own scoring. This
/// checks a proof independently of the search that found it. Returns the
/// number of games played out.
fn verify_strategy(solver: &mut Solver, winner: Side, pos: &Position, game: &RefGame) -> u64 {
    let n = pos.size();
    for r in 0..n {
        for c in 0..n {
            let bit = 1u64 << (r * n + c);
            assert_eq!(pos.seeds() & bit != 0, game.seed[r][c]);
            assert_eq!(pos.flowers() & bit != 0, game.flower[r][c]);
        }
    }
    let Some(mover) = pos.to_move() else {
        assert_eq!(game.all_covered(), winner == Side::Dandelions, "\n{pos}");
        return 1;
    };
    let follow = |mv: Move, game: &RefGame| match mv {
        Move::Place(c) => game.place(c.row as usize, c.col as usize),
        Move::Blow(d) => game.blow(d.index()),
    };
    if mover == winner {
        let (mv, w) = solver.best_move(pos);
        assert_eq!(w, winner, "\n{pos}");
        let mv = mv.unwrap();
        verify_strategy(solver, winner, &pos.play(mv).unwrap(), &follow(mv, game))
    } else {
        pos.legal_moves()
            .into_iter()
            .map(|mv| verify_strategy(solver, winner, &pos.play(mv).unwrap(), &follow(mv, game)))
            .sum()
    }
}

#[test]
fn dandelions_strategy_beats_every_wind_sequence() {
    // 5x5: the dandelions' strategy against all 8·7·6·5·4·3·2 wind orders.
    let start = Position::start();
    let mut solver = Solver::new(5, 7, &SolveOptions::default());
    let winner = solver.winner(&start);
    assert_eq!(winner, Side::Dandelions);
    let games = verify_strategy(&mut solver, winner, &start, &RefGame::from_position(&start));
    assert_eq!(games, 40320);
}

#[test]
fn winning_strategies_on_small_boards_hold() {
    for (n, turns) in [(3, 4), (3, 5), (3, 6), (4, 4), (4, 7)] {
        let start = Position::empty(n, turns).unwrap();
        let mut solver = Solver::new(n, turns, &small_options());
        let winner = solver.winner(&start);
        let games = verify_strategy(&mut solver, winner, &start, &RefGame::from_position(&start));
        eprintln!("{n}x{n}, {turns} turns: {} win, {games} games checked", winner);
        assert!(games > 0);
    }
}

#[test]
fn every_first_move_wins_for_the_dandelions() {
    let mut solver = Solver::new(5, 7, &SolveOptions::default());
    let values = solver.move_values(&Position::start());
    assert_eq!(values.len(), 25);
    assert!(values.iter().all(|(_, w)| *w == Side::Dandelions));
}

// ---------------------------------------------------------------------
// Text format.

#[test]
fn parse_and_display_round_trip() {
    let mut rng = StdRng::seed_from_u64(8);
    for n in 2..=6 {
        for turns in [3, 7, 8] {
            for plies in 0..=2 * turns {
                let pos = random_position(&mut rng, n, turns, plies);
                let text = pos.to_string();
                assert_eq!(Position::parse(&text).unwrap(), pos, "{text}");
                let rebuilt = Position::from_parts(n, turns, pos.seeds(), pos.flowers(), pos.winds_left());
                assert_eq!(rebuilt.unwrap(), pos);
            }
        }
    }
    let with_spaces =
        "# a comment\n* ~ . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .\nwind: n, ne e se s sw w nw\n";
    // One flower and one wind (W) used: seeds west of a1? None possible, so
    // b1 must come from E… E is listed, so this seed is stray.
    assert!(matches!(Position::parse(with_spaces), Err(DandelionsError::StraySeed { line: 2, column: 3 })));
    let ok = "*~~~~\n.....\n.....\n.....\n.....\nwind: N NE SE S SW W NW\n";
    let pos = Position::parse(ok).unwrap();
    assert_eq!(pos.to_move(), Some(Side::Dandelions));
    assert_eq!(pos.winds_used(), 1);
}

#[test]
fn parse_errors_name_the_place() {
    use DandelionsError::*;
    let grid = ".....\n.....\n.....\n.....\n.....\n";
    assert_eq!(
        Position::parse(".....\n..x..\n.....\n.....\n.....\nwind: N\n"),
        Err(BadCell { line: 2, column: 3, found: 'x' })
    );
    assert_eq!(
        Position::parse(".....\n....\n.....\n.....\n.....\nwind: N\n"),
        Err(RowLength { line: 2, found: 4, expected: 5 })
    );
    assert_eq!(Position::parse(grid), Err(MissingWinds));
    assert_eq!(Position::parse("wind: N\n"), Err(NoGrid));
    assert_eq!(
        Position::parse(&format!("{grid}wind: N NE EAST up\n")),
        Err(BadDirection { line: 6, column: 17, word: "up".into() })
    );
    assert_eq!(
        Position::parse(&format!("{grid}wind: N NE n\n")),
        Err(DuplicateDirection { line: 6, column: 12, dir: "N" })
    );
    assert_eq!(
        Position::parse(".......\n.......\n.......\n.......\n.......\n.......\n.......\nwind: N\n"),
        Err(GridSize { rows: 7 })
    );
    // Counts: wind used but no flower; two flowers without a wind between.
    assert!(matches!(Position::parse(&format!("{grid}wind: NE E SE S SW W NW\n")), Err(Inconsistent { .. })));
    assert!(matches!(
        Position::parse("*....\n.....\n..*..\n.....\n.....\nwind: N NE E SE S SW W NW\n"),
        Err(Inconsistent { .. })
    ));
    // Too many turns for the stated game length.
    assert!(matches!(Position::parse("*.*\n...\n...\nwind: NE E SE S SW W\nturns: 1\n"), Err(Inconsistent { .. })));
    assert!(matches!(Position::parse(&format!("{grid}wind: N\nturns: 9\n")), Err(Syntax { line: 7, .. })));
    // A seed no used direction can explain (only S used, flower at c3).
    assert_eq!(
        Position::parse(".....\n.....\n..*..\n..~..\n..~~.\nwind: N NE E SE SW W NW\n"),
        Err(StraySeed { line: 5, column: 4 })
    );
    // Seeds that each some flower could explain, but no order produces:
    // E was blown after a1's placement (b1..e1 seeded) yet c3 shows no
    // seeds east, so c3 came after E; then S was blown, which must have
    // seeded a2..a5 (it did) and c4, c5 (missing).
    assert!(matches!(
        Position::parse("*~~~~\n~....\n~.*..\n~....\n~....\nwind: N NE SE SW W NW\n"),
        Err(Inconsistent { .. })
    ));
    // Grid rows after the wind line.
    assert!(matches!(Position::parse(&format!("{grid}wind: N\n.....\n")), Err(Syntax { line: 7, .. })));
    // Messages name the place.
    let msg = Position::parse(".....\n..x..\n.....\n.....\n.....\nwind: N\n").unwrap_err().to_string();
    assert!(msg.contains("line 2, column 3"), "{msg}");
}

#[test]
fn finished_games_are_scored() {
    let covered = "*~~~*\n~~*~~\n~~*~~\n~~*~~\n*~~~*\nwind: S\n";
    let pos = Position::parse(covered).unwrap();
    assert_eq!(pos.to_move(), None);
    assert_eq!(pos.result(), Some(Side::Dandelions));
    let mut solver = Solver::new(5, 7, &small_options());
    assert_eq!(solver.winner(&pos), Side::Dandelions);
}

// ---------------------------------------------------------------------
// Commands and the terminal game.

#[test]
fn solve_command_reports_value_and_moves() {
    let text = "*~~~*\n*~*~.\n~~*~~\n.~.~.\n*~~~*\nwind: N S\n";
    let out = solve_command(Some(text), true, false).unwrap();
    assert!(out.contains("With perfect play the wind wins."), "{out}");
    assert!(out.contains("Best move (winning move): N"), "{out}");
    let json = solve_command(Some(text), true, true).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["winner"], "wind");
    assert_eq!(v["to_move"], "wind");
    assert_eq!(v["best_move"], "N");
    assert_eq!(v["moves"].as_array().unwrap().len(), 2);
    // A finished game has no moves to list.
    let over = "*~~~*\n~~*~~\n~~*~~\n~~*~~\n*~~~*\nwind: S\n";
    let out = solve_command(Some(over), true, false).unwrap();
    assert!(out.contains("The game is over: the dandelions win."), "{out}");
    let err = solve_command(Some("..\n..\n"), false, false).unwrap_err();
    assert!(err.to_string().contains("wind:"), "{err}");
}

fn run_game(program: Side, input: &str) -> String {
    let mut out = Vec::new();
    play_command(program, input.as_bytes(), &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn program_as_dandelions_beats_any_wind() {
    // The person (wind) tries bad input first, then blows in order.
    let input = "x\nc3\nN\nN\nNE\nE\nSE\nS\nSW\nW\nNW\n";
    let out = run_game(Side::Dandelions, input);
    assert!(out.contains("Rejected: \"x\" is not a direction"), "{out}");
    assert!(out.contains("Rejected: \"c3\" is not a direction"), "{out}");
    assert!(out.contains("Rejected: illegal move N: the wind has already blown that way"), "{out}");
    assert!(out.contains("the dandelions win"), "{out}");
    assert!(out.contains("The program wins."), "{out}");
    assert_eq!(out.matches("(a winning move)").count(), 7, "{out}");

    // Random winds, several games.
    let mut rng = StdRng::seed_from_u64(9);
    for _ in 0..3 {
        let mut dirs: Vec<&str> = vec!["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
        for i in (1..dirs.len()).rev() {
            dirs.swap(i, rng.random_range(0..=i));
        }
        let out = run_game(Side::Dandelions, &(dirs.join("\n") + "\n"));
        assert!(out.contains("The program wins."), "{out}");
    }
}

#[test]
fn program_as_wind_punishes_bad_placements() {
    // Flowers crowded in one corner: the wind must win.
    let input = "a1\na1\nzz\nN\n1,2\nb2\na2\n9,9\nb1\nc1\nc2\na3\nb3\nc3\n";
    let out = run_game(Side::Wind, input);
    assert!(out.contains("Rejected: illegal move a1: there is already a flower there"), "{out}");
    assert!(out.contains("Rejected: \"zz\" is not a cell"), "{out}");
    assert!(out.contains("is a wind direction, but you play the dandelions"), "{out}");
    assert!(out.contains("The wind wins."), "{out}");
    assert!(out.contains("The program wins."), "{out}");
}

#[test]
fn game_stops_cleanly_at_end_of_input() {
    let out = run_game(Side::Wind, "c3\n");
    assert!(out.contains("End of input"), "{out}");
    let out = run_game(Side::Dandelions, "");
    assert!(out.contains("End of input"), "{out}");
    let out = run_game(Side::Wind, "quit\n");
    assert!(out.contains("Game stopped."), "{out}");
}

#[test]
fn cell_and_direction_notation() {
    assert_eq!(Cell::parse("c3", 5), Some(Cell::new(2, 2)));
    assert_eq!(Cell::parse("A1", 5), Some(Cell::new(0, 0)));
    assert_eq!(Cell::parse("3,2", 5), Some(Cell::new(2, 1)));
    assert_eq!(Cell::parse(" 5 , 5 ", 5), Some(Cell::new(4, 4)));
    assert_eq!(Cell::parse("f1", 5), None);
    assert_eq!(Cell::parse("a0", 5), None);
    assert_eq!(Cell::parse("0,1", 5), None);
    assert_eq!(Cell::new(2, 1).to_string(), "b3");
    assert_eq!(Dir::parse("ne"), Some(Dir::NE));
    assert_eq!(Dir::parse("north-west"), Some(Dir::NW));
    assert_eq!(Dir::parse("up"), None);
    for d in Dir::ALL {
        assert_eq!(Dir::parse(d.name()), Some(d));
        assert_eq!(Dir::from_index(d.index()), d);
    }
}
