//! Tests: parsing, the sgt-solo ID, solutions checked by the plain validator, counting,
//! a fuzz comparison against a separately written reference backtracker, SIMD vs scalar.

use std::ops::ControlFlow;
use std::process::Command;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use super::symmetry::transform as transform_for_tests;
use super::*;

// ---------------------------------------------------------------------------------------
// The reference: a plain backtracker, written without any of the solvers' code.

fn legal(n: usize, br: usize, bc: usize, cells: &[u8], r: usize, c: usize) -> Vec<u8> {
    let mut used = vec![false; n + 1];
    for i in 0..n {
        used[cells[r * n + i] as usize] = true;
        used[cells[i * n + c] as usize] = true;
    }
    let (r0, c0) = (r / br * br, c / bc * bc);
    for i in 0..br {
        for j in 0..bc {
            used[cells[(r0 + i) * n + c0 + j] as usize] = true;
        }
    }
    (1..=n as u8).filter(|&v| !used[v as usize]).collect()
}

fn reference_count(br: usize, bc: usize, cells: &[u8], limit: u64) -> u64 {
    let n = br * bc;
    let mut cells = cells.to_vec();
    // Givens must not repeat in any house.
    for r in 0..n {
        for c in 0..n {
            let v = cells[r * n + c];
            if v != 0 {
                cells[r * n + c] = 0;
                let ok = legal(n, br, bc, &cells, r, c).contains(&v);
                cells[r * n + c] = v;
                if !ok {
                    return 0;
                }
            }
        }
    }
    fn rec(n: usize, br: usize, bc: usize, cells: &mut Vec<u8>, limit: u64) -> u64 {
        let mut best: Option<(usize, Vec<u8>)> = None;
        for i in 0..n * n {
            if cells[i] == 0 {
                let options = legal(n, br, bc, cells, i / n, i % n);
                if best.as_ref().is_none_or(|(_, b)| options.len() < b.len()) {
                    let empty = options.is_empty();
                    best = Some((i, options));
                    if empty {
                        break;
                    }
                }
            }
        }
        let Some((i, options)) = best else { return 1 };
        let mut total = 0;
        for v in options {
            cells[i] = v;
            total += rec(n, br, bc, cells, limit - total);
            cells[i] = 0;
            if total >= limit {
                break;
            }
        }
        total
    }
    rec(n, br, bc, &mut cells, limit)
}

/// A random full grid, by the reference backtracker with shuffled digits.
fn random_solution(br: usize, bc: usize, rng: &mut StdRng) -> Vec<u8> {
    let n = br * bc;
    fn fill(n: usize, br: usize, bc: usize, cells: &mut Vec<u8>, i: usize, rng: &mut StdRng) -> bool {
        if i == n * n {
            return true;
        }
        let mut options = legal(n, br, bc, cells, i / n, i % n);
        options.shuffle(rng);
        for v in options {
            cells[i] = v;
            if fill(n, br, bc, cells, i + 1, rng) {
                return true;
            }
        }
        cells[i] = 0;
        false
    }
    let mut cells = vec![0; n * n];
    assert!(fill(n, br, bc, &mut cells, 0, rng));
    cells
}

fn grid(text: &str) -> Grid {
    Grid::parse(text, None).unwrap_or_else(|e| panic!("{e}: {text}"))
}

const CLASSIC: &str =
    "53..7....\n6..195...\n.98....6.\n8...6...3\n4..8.3..1\n7...2...6\n.6....28.\n...419..5\n....8..79";

// ---------------------------------------------------------------------------------------
// Parsing.

#[test]
fn parses_lines_one_line_and_pretty_forms() {
    let g = grid(CLASSIC);
    assert_eq!(g.size(), 9);
    assert_eq!(g.box_shape(), (3, 3));
    assert_eq!(g.get(0, 0), 5);
    assert_eq!(g.get(8, 8), 9);
    assert_eq!(g.givens(), 30);
    assert_eq!(g.to_string(), CLASSIC);
    let line = g.to_line();
    assert_eq!(line.len(), 81);
    assert_eq!(grid(&line), g);
    assert_eq!(grid(&line.replace('.', "0")), g);
    let pretty = "5 3 . | . 7 . | . . .\n6 . . | 1 9 5 | . . .\n. 9 8 | . . . | . 6 .\n------+-------+------\n\
                  8 . . | . 6 . | . . 3\n4 . . | 8 . 3 | . . 1\n7 . . | . 2 . | . . 6\n------+-------+------\n\
                  . 6 . | . . . | 2 8 .\n. . . | 4 1 9 | . . 5\n. . . | . 8 . | . 7 9\n";
    assert_eq!(grid(pretty), g);
    assert_eq!(grid(&format!("# a comment\n\n{CLASSIC}\n\n")), g);
    assert_eq!(CLASSIC.parse::<Grid>().unwrap(), g);
}

#[test]
fn infers_and_accepts_box_shapes() {
    assert_eq!(grid("1...\n..3.\n.4..\n...2").box_shape(), (2, 2));
    let six = grid("1.....\n......\n......\n......\n......\n.....6");
    assert_eq!(six.box_shape(), (2, 3));
    let six_t = Grid::parse("1.....\n......\n......\n......\n......\n.....6", Some((3, 2))).unwrap();
    assert_eq!(six_t.box_shape(), (3, 2));
    let twelve = format!("{}\n{}", "123456789ABC", ["............"; 11].join("\n"));
    let g = grid(&twelve);
    assert_eq!((g.size(), g.box_shape(), g.get(0, 11)), (12, (3, 4), 12));
    let sixteen = format!("G{}", ".".repeat(255));
    let g = grid(&sixteen);
    assert_eq!((g.size(), g.box_shape(), g.get(0, 0)), (16, (4, 4), 16));
    assert_eq!(grid(&"abc.........".repeat(12)).get(0, 2), 12, "lower-case symbols");
    for (n, shape) in [(4, (2, 2)), (6, (2, 3)), (8, (2, 4)), (9, (3, 3)), (10, (2, 5)), (12, (3, 4)), (16, (4, 4))] {
        assert_eq!(default_box_shape(n), Some(shape));
    }
    assert_eq!(default_box_shape(7), None);
    assert_eq!(parse_box_shape("2x3").unwrap(), (2, 3));
    assert_eq!(parse_box_shape(" 3X4 ").unwrap(), (3, 4));
    assert!(parse_box_shape("3").is_err());
    assert!(parse_box_shape("5x5").is_err());
}

#[test]
fn errors_name_the_place_and_the_problem() {
    let msg = |text: &str, shape| Grid::parse(text, shape).unwrap_err().to_string();
    assert_eq!(
        msg("53..7....\n6..1x5...", None),
        "line 2, column 5: unexpected character 'x' (expected 1-9, A-G, '.' or '0')"
    );
    assert_eq!(msg(&CLASSIC.replace("6..195...", "6..195.."), None), "line 2 has 8 cells, expected 9");
    assert_eq!(
        msg(&CLASSIC.replace("....8..79", ""), None),
        "the grid has 8 rows of 9 cells: a grid needs as many rows as columns"
    );
    assert_eq!(
        msg(&CLASSIC.replace("6..195...", "6..1A5..."), None),
        "line 2, column 5: symbol 'A' is too large for a 9x9 grid"
    );
    assert_eq!(
        msg(&".".repeat(80), None),
        "a one-line grid needs 16, 36, 64, 81, 100, 144, 196, 225 or 256 symbols; found 80"
    );
    assert_eq!(msg(CLASSIC, Some((2, 3))), "box 2x3 does not tile a 9x9 grid (2*3 != 9)");
    assert_eq!(msg("  \n\n", None), "empty input: no grid found");
    assert!(msg(&".".repeat(49), None).contains("no box shape is inferred for a 7x7 grid"));
    // Clashes are named with 1-based rows and columns.
    let clash = |text: &str| grid(text).check_clashes().unwrap_err().to_string();
    let mut row = ["........."; 9];
    row[2] = ".7.....7.";
    assert_eq!(clash(&row.join("\n")), "row 3 has two 7s (columns 2 and 8)");
    let mut col = ["........."; 9];
    col[0] = "...5.....";
    col[5] = "...5.....";
    assert_eq!(clash(&col.join("\n")), "column 4 has two 5s (rows 1 and 6)");
    let mut bx = ["........."; 9];
    bx[0] = "...3.....";
    bx[1] = ".....3...";
    assert_eq!(clash(&bx.join("\n")), "box 2 has two 3s (row 1 column 4 and row 2 column 6)");
    assert!(grid(CLASSIC).clashes().is_empty());
}

#[test]
fn sgt_ids_decode_by_hand() {
    // 2x2: "c1a1d3a2c" = 3 empty, 1, empty, 1, 4 empty, 3, empty, 2, 3 empty.
    let g = grid("2x2:c1a1d3a2c");
    assert_eq!(g.cells(), &[0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 3, 0, 2, 0, 0, 0]);
    assert_eq!(g.to_sgt_id(), "2x2:c1a1d3a2c");
    // '_' between adjacent givens, two-digit givens on 12x12, long runs.
    let g = grid("2x2:1_2_3_4l");
    assert_eq!(&g.cells()[..5], &[1, 2, 3, 4, 0]);
    let g = grid(&format!("3x4:10_12{}", "z".repeat(5) + "l"));
    assert_eq!((g.size(), g.get(0, 0), g.get(0, 1), g.givens()), (12, 10, 12, 2));
    assert_eq!(g.to_sgt_id(), format!("3x4:10_12{}", "z".repeat(5) + "l"));
    assert_eq!(grid("3:zzzc").box_shape(), (3, 3), "a bare 3 means 3x3");
    // A 9x9 ID written out from a known puzzle round-trips.
    let classic = grid(CLASSIC);
    let id = classic.to_sgt_id();
    assert_eq!(id, "3x3:5_3b7d6b1_9_5d9_8d6a8c6c3_4b8a3b1_7c2c6a6d2_8d4_1_9b5d8b7_9");
    assert_eq!(grid(&id), classic);
    // Difficulty letters are ignored, variants refused, bad descriptions named.
    assert_eq!(grid("3x3du:i3b9_4b1a2a5b6a7_4b6a8c1_1c7c6_8c1a4b4_5a7b3a9a1b5_3b7i").givens(), 27);
    let err = |id: &str| Grid::parse_sgt_id(id).unwrap_err().to_string();
    assert_eq!(err("3x3j:a"), "sgt-solo game ID: jigsaw puzzles are not supported");
    assert_eq!(err("3x3:a"), "sgt-solo game ID: description covers 1 cells, expected 81");
    assert_eq!(err("2x2:c5l"), "sgt-solo game ID: given 5 at position 2 is out of range 1-4");
    assert_eq!(err("2x2:1__2_3_4l"), "sgt-solo game ID: '_' at position 3 does not follow a given");
    assert!(err("2x2:c1a1d3a2cz").contains("more than the 16 cells"));
    assert!(Grid::parse("3x3:i3", Some((2, 3))).is_err());
}

#[test]
fn sgt_solo_box_orientation_is_rows_by_columns() {
    // sgt-solo's 2x3 puzzle, as generated: unique with boxes 2 rows x 3 columns.
    let g = grid("2x3:c4a2a4b5a3a1f6a3a5b6a6a4c");
    assert_eq!(g.box_shape(), (2, 3));
    assert_eq!(count_solutions(&g, 2), 1);
    let transposed = Grid::from_cells(3, 2, g.cells().to_vec()).unwrap();
    assert_ne!(count_solutions(&transposed, 2), 1);
}

/// Generates a few puzzles of each shape with sgt-solo (when installed) and checks they
/// parse, have exactly one solution, and that the solution passes the validator.
#[test]
fn parses_and_solves_generated_sgt_sets() {
    // sgt-solo is installed by scripts/setup-debian.sh: without it this test fails rather than pass unrun.
    let solo = "/usr/games/sgt-solo";
    assert!(std::path::Path::new(solo).exists(), "{solo} is missing: install sgt-puzzles (scripts/setup-debian.sh)");
    for params in ["2x2#t1", "2x3#t2", "3x3dt#t3", "3x3da#t4", "3x3de#t5", "3x4#t6", "4x4#t7"] {
        let out = Command::new(solo).args(["--generate", "10", params]).output().unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let ids: Vec<&str> = text.lines().collect();
        assert_eq!(ids.len(), 10, "{params}");
        for id in ids {
            let g = grid(id);
            assert_eq!(g.to_sgt_id(), id.split_once(':').map(|(p, d)| format!("{}:{d}", &p[..3])).unwrap());
            let a = analyse(&g, 2);
            assert_eq!(a.count, 1, "{id}");
            check_solution(&g, a.solution.as_ref().unwrap()).unwrap();
        }
    }
}

// ---------------------------------------------------------------------------------------
// Solving and counting.

#[test]
fn famous_hard_puzzles_are_unique_and_solved_by_every_engine() {
    for (name, text) in HARD_PUZZLES {
        let g = grid(text);
        g.check_clashes().unwrap();
        assert_eq!(reference_count(3, 3, g.cells(), 2), 1, "{name}: reference count");
        for engine in Engine::available() {
            let mut sols = Vec::new();
            let n = for_each_solution_with(&g, 10, engine, |s| {
                sols.push(Grid::from_cells(3, 3, s.to_vec()).unwrap());
                ControlFlow::Continue(())
            });
            assert_eq!(n, 1, "{name}");
            check_solution(&g, &sols[0]).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }
}

#[test]
fn check_solution_catches_every_kind_of_error() {
    let g = grid(CLASSIC);
    let s = solve(&g).unwrap();
    check_solution(&g, &s).unwrap();
    let mut changed = s.clone();
    let (a, b) = (changed.get(0, 2), changed.get(0, 3));
    changed.set(0, 2, b);
    changed.set(0, 3, a);
    assert!(check_solution(&g, &changed).unwrap_err().contains("column"));
    let mut given = s.clone();
    given.set(0, 0, if s.get(0, 0) == 1 { 2 } else { 1 });
    assert_eq!(
        check_solution(&g, &given).unwrap_err(),
        format!("row 1 column 1: given 5 changed to {}", given.get(0, 0))
    );
    let mut empty = s.clone();
    empty.set(4, 4, 0);
    assert_eq!(check_solution(&g, &empty).unwrap_err(), "row 5 column 5 is empty");
    // A Latin square whose boxes repeat.
    let latin: Vec<u8> = (0..81).map(|i| ((i / 9 + i % 9) % 9 + 1) as u8).collect();
    let latin = Grid::from_cells(3, 3, latin).unwrap();
    assert_eq!(check_solution(&Grid::empty(3, 3).unwrap(), &latin).unwrap_err(), "box 1 repeats a digit");
}

#[test]
fn counts_multiple_solutions() {
    for (r, c) in [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4)] {
        let empty = Grid::empty(r, c).unwrap();
        let a = analyse(&empty, 2);
        assert_eq!(a.count, 2, "{r}x{c}");
        assert_eq!(a.describe(), "more than one solution");
        check_solution(&empty, a.solution.as_ref().unwrap()).unwrap();
    }
    // The 4x4 grid has 288 solutions.
    assert_eq!(count_solutions(&Grid::empty(2, 2).unwrap(), 1000), 288);
    // A solved grid with a deadly rectangle emptied has exactly two solutions.
    let mut rng = StdRng::seed_from_u64(7);
    let mut found = 0;
    while found < 5 {
        let cells = random_solution(3, 3, &mut rng);
        let at = |r: usize, c: usize| cells[r * 9 + c];
        'search: for r1 in 0..9 {
            for r2 in r1 + 1..(r1 / 3 * 3 + 3) {
                for c1 in 0..9 {
                    for c2 in (c1 / 3 * 3 + 3)..9 {
                        if at(r1, c1) == at(r2, c2) && at(r1, c2) == at(r2, c1) {
                            let mut puzzle = cells.clone();
                            for (r, c) in [(r1, c1), (r1, c2), (r2, c1), (r2, c2)] {
                                puzzle[r * 9 + c] = 0;
                            }
                            let g = Grid::from_cells(3, 3, puzzle).unwrap();
                            assert_eq!(count_solutions(&g, 100), 2);
                            let mut seen = Vec::new();
                            for_each_solution(&g, 100, |s| {
                                seen.push(s.to_vec());
                                ControlFlow::Continue(())
                            });
                            assert_eq!(seen.len(), 2);
                            assert_ne!(seen[0], seen[1]);
                            found += 1;
                            break 'search;
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn zero_when_the_contradiction_needs_propagation() {
    // Row 1 needs its 9 in column 9, but column 9 already has one (no clash among givens).
    let mut rows = ["........."; 9];
    rows[0] = "12345678.";
    rows[4] = "........9";
    let g = grid(&rows.join("\n"));
    assert!(g.clashes().is_empty());
    assert_eq!(count_solutions(&g, 2), 0);
    assert_eq!(reference_count(3, 3, g.cells(), 2), 0);
    // Row 1 column 1 sees 1-6 in its row, 7 and 8 in its column, 9 in its box.
    let mut rows = ["........."; 9];
    rows[0] = "...123456";
    rows[1] = ".9.......";
    rows[3] = "7........";
    rows[6] = "8........";
    let g = grid(&rows.join("\n"));
    assert!(g.clashes().is_empty());
    for engine in Engine::available() {
        assert_eq!(for_each_solution_with(&g, 2, engine, |_| ControlFlow::Continue(())), 0);
    }
    assert!(solve(&g).is_none());
    assert_eq!(analyse(&g, 2).describe(), "no solution");
    // The same idea on 6x6 (generic solver): row 1 holds 1-5 and column 6 a 6 elsewhere.
    let g = grid("12345.\n......\n......\n.....6\n......\n......");
    assert_eq!(count_solutions(&g, 2), 0);
    // Clashing givens count 0 in both solvers.
    let mut rows = ["........."; 9];
    rows[2] = ".7.....7.";
    assert_eq!(count_solutions(&grid(&rows.join("\n")), 2), 0);
    assert_eq!(count_solutions(&grid("11..\n....\n....\n...."), 2), 0);
}

#[test]
fn for_each_solution_respects_limit_and_break() {
    let empty = Grid::empty(3, 3).unwrap();
    let mut seen = std::collections::HashSet::new();
    let n = for_each_solution(&empty, 500, |s| {
        let g = Grid::from_cells(3, 3, s.to_vec()).unwrap();
        check_solution(&empty, &g).unwrap();
        seen.insert(s.to_vec());
        ControlFlow::Continue(())
    });
    assert_eq!((n, seen.len()), (500, 500));
    let mut calls = 0;
    let n = for_each_solution(&empty, 500, |_| {
        calls += 1;
        if calls == 7 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    assert_eq!((n, calls), (7, 7));
    assert_eq!(count_solutions(&empty, 0), 0);
    // Sampling: valid and varied.
    let samples: std::collections::HashSet<String> = (1..=20)
        .map(|seed| {
            let s = sample_solution(&empty, seed).unwrap();
            check_solution(&empty, &s).unwrap();
            s.to_line()
        })
        .collect();
    assert!(samples.len() >= 15, "{}", samples.len());
    let six = Grid::empty(2, 3).unwrap();
    let s = sample_solution(&six, 3).unwrap();
    check_solution(&six, &s).unwrap();
}

/// Random puzzles (random subsets of random solutions, some corrupted, some pure noise),
/// counted to 2 by the solvers and by the reference backtracker.
fn fuzz(br: usize, bc: usize, cases: usize, seed: u64) {
    let n = br * bc;
    let mut rng = StdRng::seed_from_u64(seed);
    let mut tally = [0usize; 3];
    for case in 0..cases {
        let mut cells = random_solution(br, bc, &mut rng);
        let kind = rng.random_range(0..10);
        let min_clues = match n {
            9 => 17,
            12 => 50,
            _ => n,
        };
        let keep = rng.random_range(min_clues.min(n * n)..=n * n);
        let mut order: Vec<usize> = (0..n * n).collect();
        order.shuffle(&mut rng);
        for &i in &order[keep..] {
            cells[i] = 0;
        }
        if kind >= 7 {
            // Corrupt one or two givens.
            for _ in 0..rng.random_range(1..=2) {
                let i = order[rng.random_range(0..keep.max(1))];
                cells[i] = rng.random_range(1..=n as u8);
            }
        }
        if kind == 9 && n <= 9 {
            // Pure noise: a few random digits anywhere.
            cells = vec![0; n * n];
            for _ in 0..rng.random_range(1..n * 2) {
                cells[rng.random_range(0..n * n)] = rng.random_range(1..=n as u8);
            }
        }
        let g = Grid::from_cells(br, bc, cells.clone()).unwrap();
        let expected = reference_count(br, bc, &cells, 2);
        let got = count_solutions(&g, 2);
        assert_eq!(got, expected, "case {case}: {}x{} {}", br, bc, g.to_line());
        if n == 9 {
            assert_eq!(super::solver::solver9::count_with(Engine::Scalar, &cells, 2), expected, "scalar, case {case}");
        }
        if let Some(s) = solve(&g) {
            check_solution(&g, &s).unwrap_or_else(|e| panic!("case {case}: {e}"));
        }
        tally[expected as usize] += 1;
    }
    // Every outcome must be exercised.
    assert!(tally.iter().all(|&t| t > 0), "{br}x{bc}: {tally:?}");
}

#[test]
fn fuzz_9x9_against_reference() {
    fuzz(3, 3, 3000, 1);
}

#[test]
fn fuzz_small_sizes_against_reference() {
    fuzz(2, 2, 2000, 2);
    fuzz(2, 3, 2000, 3);
    fuzz(3, 2, 500, 4);
}

#[test]
fn fuzz_12x12_against_reference() {
    fuzz(3, 4, 150, 5);
}

#[test]
fn generic_solver_agrees_with_fast_solver_on_9x9() {
    let mut rng = StdRng::seed_from_u64(11);
    for _ in 0..500 {
        let mut cells = random_solution(3, 3, &mut rng);
        let keep = rng.random_range(17..=40);
        let mut order: Vec<usize> = (0..81).collect();
        order.shuffle(&mut rng);
        for &i in &order[keep..] {
            cells[i] = 0;
        }
        let mut generic_count = 0;
        super::solver::generic::search(3, 3, &cells, 3, 0, &mut |_| {
            generic_count += 1;
            ControlFlow::Continue(())
        });
        assert_eq!(super::solver::solver9::count_with(Engine::best(), &cells, 3), generic_count);
    }
}

#[test]
fn every_engine_agrees_with_the_scalar_one() {
    let engines = Engine::available();
    if engines.len() < 3 {
        eprintln!("engines on this CPU: {engines:?} (not all three)");
    }
    let mut rng = StdRng::seed_from_u64(13);
    let mut seed = 99u64;
    let mut puzzles: Vec<Vec<u8>> = Vec::new();
    for (_, p) in HARD_PUZZLES {
        for _ in 0..50 {
            puzzles.push(transform_for_tests(&grid(p), &mut seed).cells().to_vec());
        }
    }
    for _ in 0..1500 {
        let mut cells = random_solution(3, 3, &mut rng);
        let keep = rng.random_range(17..=35);
        let mut order: Vec<usize> = (0..81).collect();
        order.shuffle(&mut rng);
        for &i in &order[keep..] {
            cells[i] = 0;
        }
        puzzles.push(cells);
    }
    for cells in &puzzles {
        let collect = |engine| {
            let mut sols = Vec::new();
            super::solver::solver9::search_with(engine, cells, 3, &mut |s| {
                sols.push(s.to_vec());
                ControlFlow::Continue(())
            });
            sols
        };
        let scalar = collect(Engine::Scalar);
        for &engine in &engines[1..] {
            assert_eq!(collect(engine), scalar, "{engine:?}");
        }
    }
}

#[test]
fn fast_solver_agrees_with_the_reference_solver() {
    use crate::bench::sudoku::{compare_with_reference, generated_puzzle};
    let hard = HARD_PUZZLES.iter().flat_map(|(_, p)| {
        let g = grid(p);
        (0..20).map(move |i| {
            let mut s = 7 + i;
            let mut cells = [0u8; 81];
            cells.copy_from_slice(transform_for_tests(&g, &mut s).cells());
            cells
        })
    });
    let c = compare_with_reference(hard.chain((0..8000).map(generated_puzzle)), || {});
    assert_eq!(c.disagreeing, 0, "{:?}", c.disagreements);
    assert_eq!(c.puzzles, 8000 + 20 * HARD_PUZZLES.len());
    assert!(c.unique > 500 && c.multiple > 500 && c.unsolvable > 200 && c.sets_compared > 500, "{c:?}");
}

#[test]
fn speed_bench_parses_files_and_reports_a_rate() {
    use crate::bench::sudoku::{bench_file_command, parse_puzzles};
    let text = format!("# a comment\n\n{}\n{}\n", HARD_PUZZLES[0].1, ".".repeat(81));
    let puzzles = parse_puzzles(&text).unwrap();
    assert_eq!(puzzles.len(), 2);
    assert_eq!(puzzles[1], [0u8; 81]);
    let err = parse_puzzles("123\n").unwrap_err().to_string();
    assert!(err.starts_with("line 1:"), "{err}");
    let out = bench_file_command("t", &text, 2, 0.0).unwrap();
    assert!(out.starts_with("t: 2 puzzles (1 unique, 1 with more than one solution, 0 unsolvable"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("rate: ") && l.contains(" puzzles/s, ")), "{out}");
}

#[test]
fn transforms_keep_uniqueness() {
    let mut seed = 5u64;
    for (_, p) in HARD_PUZZLES {
        let t = transform_for_tests(&grid(p), &mut seed);
        assert_eq!(count_solutions(&t, 2), 1);
    }
}

// ---------------------------------------------------------------------------------------
// Commands.

#[test]
fn solve_command_outputs() {
    let out = solve_command(CLASSIC, None, false, None, false).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 9);
    check_solution(&grid(CLASSIC), &grid(&out)).unwrap();
    let out = solve_command(CLASSIC, None, true, None, false).unwrap();
    assert!(out.ends_with("1 solution (unique)\n"), "{out}");
    let out = solve_command(&".".repeat(81), None, true, None, false).unwrap();
    assert!(out.ends_with("more than one solution\n"));
    let out = solve_command(&".".repeat(16), None, true, Some(1000), false).unwrap();
    assert!(out.ends_with("288 solutions\n"), "{out}");
    let out = solve_command(&".".repeat(16), None, true, Some(100), false).unwrap();
    assert!(out.ends_with("at least 100 solutions (counting stopped at the limit)\n"), "{out}");
    let json: serde_json::Value =
        serde_json::from_str(&solve_command(CLASSIC, None, true, None, true).unwrap()).unwrap();
    assert_eq!(json["count"], 1);
    assert_eq!(json["solution"].as_str().unwrap().len(), 81);
    assert!(json["millis"].as_f64().unwrap() >= 0.0);
    // Errors: unsolvable, clash, parse.
    let mut rows = ["........."; 9];
    rows[0] = "12345678.";
    rows[4] = "........9";
    let unsolvable = rows.join("\n");
    assert_eq!(
        solve_command(&unsolvable, None, false, None, false).unwrap_err().to_string(),
        "no solution: the givens do not clash, but the grid cannot be completed"
    );
    assert_eq!(solve_command(&unsolvable, None, true, None, false).unwrap(), "no solution\n");
    let json: serde_json::Value =
        serde_json::from_str(&solve_command(&unsolvable, None, true, None, true).unwrap()).unwrap();
    assert_eq!((json["count"].as_u64(), json["solution"].is_null()), (Some(0), true));
    let mut rows = ["........."; 9];
    rows[2] = ".7.....7.";
    assert_eq!(
        solve_command(&rows.join("\n"), None, false, None, false).unwrap_err().to_string(),
        "row 3 has two 7s (columns 2 and 8)"
    );
    assert!(solve_command("12\n34\n", None, false, None, false).is_err());
    // Other sizes and an explicit box.
    let six = solve_command("2x3:c4a2a4b5a3a1f6a3a5b6a6a4c", None, false, None, false).unwrap();
    assert_eq!(six.lines().count(), 6);
    let six_t = solve_command(&".".repeat(36), Some((3, 2)), false, None, false).unwrap();
    check_solution(&Grid::empty(3, 2).unwrap(), &Grid::parse(&six_t, Some((3, 2))).unwrap()).unwrap();
}

#[test]
fn batch_command_names_clashing_givens_invalid() {
    let clash = format!("11{}", ".".repeat(79));
    let expected = Grid::parse(&clash, None).unwrap().check_clashes().unwrap_err().to_string();
    let out = batch_command(&format!("{}\n{clash}\n", HARD_PUZZLES[0].1), None, false).unwrap();
    let line = out.lines().nth(1).unwrap();
    let reason = line.strip_prefix("invalid: line 2").unwrap_or_else(|| panic!("{out}"));
    assert!(expected.ends_with(reason.trim_start_matches([',', ':', ' '])), "{reason} / {expected}");
    assert!(out.contains("unsolvable: 0, invalid: 1"), "{out}");
}

#[test]
fn batch_command_summarises() {
    let mut rows = ["........."; 9];
    rows[0] = "12345678.";
    rows[4] = "........9";
    let unsolvable = rows.concat();
    let text = format!(
        "{}\n# comment\n\n{}\n{}\n{}\n2x2:c1a1d3a2c\n{}\n",
        HARD_PUZZLES[0].1,
        ".".repeat(81),
        unsolvable,
        "x".repeat(81),
        grid(CLASSIC).to_line()
    );
    let out = batch_command(&text, None, false).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 8, "{out}");
    check_solution(&grid(HARD_PUZZLES[0].1), &grid(lines[0])).unwrap();
    assert!(lines[1].ends_with(" multiple"));
    assert_eq!(lines[2], "unsolvable");
    assert_eq!(lines[3], "invalid: line 6, column 1: unexpected character 'x' (expected 1-9, A-G, '.' or '0')");
    assert_eq!(lines[4].len(), 16);
    check_solution(&grid(CLASSIC), &grid(lines[5])).unwrap();
    assert_eq!(lines[6], "puzzles: 6, solved: 4 (3 unique, 1 with more than one solution), unsolvable: 1, invalid: 1");
    assert!(lines[7].starts_with("time: "));
    // Many puzzles, in order.
    let mut seed = 1u64;
    let many: Vec<Grid> =
        (0..2000).map(|i| transform_for_tests(&grid(HARD_PUZZLES[i % HARD_PUZZLES.len()].1), &mut seed)).collect();
    let text: String = many.iter().map(|g| g.to_line() + "\n").collect();
    let out = batch_command(&text, None, false).unwrap();
    for (g, line) in many.iter().zip(out.lines()) {
        check_solution(g, &grid(line)).unwrap();
    }
    assert!(out.contains("puzzles: 2000, solved: 2000 (2000 unique"));
}
