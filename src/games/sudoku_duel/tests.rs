use std::collections::HashMap;
use std::io::Cursor;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::bot::DuelOptions;
use super::game::PEERS;
use super::referee::{play_game, run_match, Answer, InProcess, Process, Side};
use super::*;
use crate::bench::sudoku_duel::{in_process_match, position_with_solutions};

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

#[test]
fn moves_parse_and_print() {
    assert_eq!(mv("Aa5"), Move::new(0, 5));
    assert_eq!(mv("Ii9!"), Move::new(80, 9).with_claim(true));
    assert_eq!(mv(" Ce1 \r"), Move::new(22, 1));
    for text in ["Aa5", "Ii9!", "Eb3"] {
        assert_eq!(mv(text).to_string(), text);
    }
}

#[test]
fn bad_moves_are_rejected_with_a_reason() {
    assert!(matches!("".parse::<Move>(), Err(MoveError::Shape(_))));
    assert!(matches!("Start".parse::<Move>(), Err(MoveError::Shape(_))));
    assert!(matches!("Aa5!!".parse::<Move>(), Err(MoveError::Shape(_))));
    assert!(matches!("Aa5?".parse::<Move>(), Err(MoveError::Shape(_))));
    assert_eq!("Ja5".parse::<Move>(), Err(MoveError::Row('J')));
    assert_eq!("aa5".parse::<Move>(), Err(MoveError::Row('a')));
    assert_eq!("AA5".parse::<Move>(), Err(MoveError::Column('A')));
    assert_eq!("Aj5".parse::<Move>(), Err(MoveError::Column('j')));
    assert_eq!("Aa0".parse::<Move>(), Err(MoveError::Digit('0')));
    assert_eq!("Ééé".parse::<Move>(), Err(MoveError::Row('É')));
    assert!(MoveError::Digit('x').to_string().contains("1-9"));
}

fn run_duel(input: &str, options: &DuelOptions) -> (anyhow::Result<()>, String, String) {
    let mut out = Vec::new();
    let mut log = Vec::new();
    let r = duel_command(Cursor::new(input.as_bytes()), &mut out, &mut log, options);
    (r, String::from_utf8(out).unwrap(), String::from_utf8(log).unwrap())
}

#[test]
fn duel_speaks_the_protocol() {
    let options = DuelOptions { seed: Some(1), ..DuelOptions::default() };
    let (r, out, log) = run_duel("\nStart\n\n\nQuit\n", &options);
    r.unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "{out}");
    assert!(lines[0].parse::<Move>().is_ok());
    assert!(log.contains("quit"), "{log}");
    // Second player: answers each move with a legal one.
    let (r, out, _) = run_duel("Ee5\nQuit\n", &options);
    r.unwrap();
    let reply = mv(out.trim());
    assert_eq!(judge(&Board::new().with(mv("Ee5")), reply), Ruling::Continue);
}

#[test]
fn duel_reports_bad_lines() {
    let options = DuelOptions { seed: Some(2), ..DuelOptions::default() };
    for (input, needle) in [
        ("Start\nhello\n", "bad line from the referee"),
        ("Zz9\n", "row 'Z'"),
        ("Ee5\nEe5\n", "filled cell"),
        ("Ee5\nEf5\n", "clashes"),
        ("Start\nStart\n", "unexpected \"Start\""),
    ] {
        let (r, _, _) = run_duel(input, &options);
        let e = format!("{:#}", r.expect_err(input));
        assert!(e.contains(needle), "{input:?}: {e}");
    }
}

/// A board with exactly two solutions (blanked from a random solution), and both.
fn two_solution_board(seed: u64) -> (Board, [u8; CELLS], [u8; CELLS]) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut board =
        Board::from_cells(sudoku::sample_solution(&sudoku::Grid::empty(3, 3).unwrap(), seed).unwrap().cells()).unwrap();
    let mut order: Vec<usize> = (0..CELLS).collect();
    for i in (1..CELLS).rev() {
        order.swap(i, rng.random_range(0..=i));
    }
    for &cell in &order {
        let mut cells = *board.cells();
        cells[cell] = 0;
        let b = Board::from_cells(&cells).unwrap();
        match b.count(3) {
            1 => board = b,
            2 => {
                board = b;
                break;
            }
            _ => {} // more than two: keep the digit
        }
    }
    let mut sols = Vec::new();
    sudoku::for_each_solution(&sudoku::Grid::from_cells(3, 3, board.cells().to_vec()).unwrap(), 3, |s| {
        sols.push(<[u8; CELLS]>::try_from(s).unwrap());
        std::ops::ControlFlow::Continue(())
    });
    assert_eq!(sols.len(), 2);
    (board, sols[0], sols[1])
}

#[test]
fn referee_rulings_on_crafted_positions() {
    let (board, s1, s2) = two_solution_board(11);
    let empty: Vec<usize> = (0..CELLS).filter(|&c| board.cells()[c] == 0).collect();
    let differ = *empty.iter().find(|&&c| s1[c] != s2[c]).unwrap();
    let same = *empty.iter().find(|&&c| s1[c] == s2[c]).unwrap();
    let filled = (0..CELLS).find(|&c| board.cells()[c] != 0).unwrap();
    // Forced digit: both solutions have it.
    assert_eq!(judge(&board, Move::new(same, s1[same])), Ruling::MoverLoses(Reason::ForcedDigit));
    // True claim wins; the same move unclaimed goes on.
    assert_eq!(judge(&board, Move::new(differ, s2[differ]).with_claim(true)), Ruling::MoverWins(Reason::TrueClaim));
    assert_eq!(judge(&board, Move::new(differ, s1[differ])), Ruling::Continue);
    // False claim: many solutions left.
    assert_eq!(judge(&Board::new(), mv("Ee5!")), Ruling::MoverLoses(Reason::FalseClaim));
    // No solution: a clash, and a digit the peers allow but no solution has.
    let peer = PEERS[differ].iter().map(|&p| p as usize).find(|&p| board.cells()[p] != 0).unwrap();
    let clash = board.cells()[peer];
    assert_eq!(judge(&board, Move::new(differ, clash)), Ruling::MoverLoses(Reason::NoSolution));
    let dead = empty
        .iter()
        .flat_map(|&c| (1..=9).map(move |d| Move::new(c, d)))
        .find(|m| !board.clashes(m.cell as usize, m.digit) && board.with(*m).count(1) == 0)
        .expect("a digit without solution");
    assert_eq!(judge(&board, dead), Ruling::MoverLoses(Reason::NoSolution));
    assert_eq!(judge(&board, dead.with_claim(true)), Ruling::MoverLoses(Reason::NoSolution));
    // Filled cell.
    assert_eq!(judge(&board, Move::new(filled, board.cells()[filled])), Ruling::MoverLoses(Reason::Occupied));
    // After the unclaimed move one solution is left: every move now loses.
    let after = board.with(Move::new(differ, s1[differ]));
    let other = *empty.iter().find(|&&c| s1[c] != s2[c] && c != differ).unwrap();
    assert_eq!(judge(&after, Move::new(other, s1[other])), Ruling::MoverLoses(Reason::ForcedDigit));
    assert_eq!(judge(&after, Move::new(other, s2[other])), Ruling::MoverLoses(Reason::NoSolution));
    // The legal-move generator agrees: only the differing cells have moves.
    let cands = possible_digits(&board, None).unwrap();
    assert!(cands.complete);
    let legal = cands.legal_moves();
    assert!(legal.iter().all(|m| s1[m.cell as usize] != s2[m.cell as usize]));
    assert_eq!(legal.len(), 2 * empty.iter().filter(|&&c| s1[c] != s2[c]).count());
}

/// A claim alone (`!`, CodeCup 2024: the turn of a player whose opponent left one solution unclaimed) is parsed
/// and printed; the referee rules it true where the board has one solution and false otherwise; the bot sends it
/// where its opponent left one solution (every move would lose), and takes the opponent's as the game's end.
#[test]
fn a_claim_alone_is_a_turn() {
    assert_eq!(" ! ".parse::<Turn>(), Ok(Turn::Claim));
    assert_eq!("Aa5!".parse::<Turn>(), Ok(Turn::Move(mv("Aa5!"))));
    assert!("!!".parse::<Turn>().is_err() && "Aa".parse::<Turn>().is_err());
    assert_eq!(Turn::Claim.to_string(), "!");

    let (board, s1, s2) = two_solution_board(11);
    let differ = (0..CELLS).find(|&c| board.cells()[c] == 0 && s1[c] != s2[c]).unwrap();
    let unclaimed = board.with(Move::new(differ, s1[differ]));
    assert_eq!(unclaimed.count(2), 1);
    assert_eq!(judge_turn(&unclaimed, Turn::Claim), Ruling::MoverWins(Reason::TrueClaim));
    assert_eq!(judge_turn(&board, Turn::Claim), Ruling::MoverLoses(Reason::FalseClaim));
    assert_eq!(judge_turn(&board, Turn::Move(Move::new(differ, s1[differ]))), Ruling::Continue);

    let mut bot = bot::Bot::new(DuelOptions { seed: Some(3), ..DuelOptions::default() });
    assert_eq!(bot.choose(&unclaimed, Duration::ZERO, &mut std::io::sink()), Turn::Claim);
    assert!(matches!(bot.choose(&board, Duration::ZERO, &mut std::io::sink()), Turn::Move(m) if m.claim));

    // In a game: a claim alone on the empty board is false.
    let r = play_game([&mut Scripted(vec![Some("!")]), &mut Scripted(vec![])], 0, Duration::from_millis(200));
    assert_eq!((r.winner, r.reason, r.claimed_alone, r.moves.len()), (1, Reason::FalseClaim, true, 0));

    // The opponent's claim alone ends the game for the bot, which then waits for Quit.
    let options = DuelOptions { seed: Some(1), ..DuelOptions::default() };
    let (r, out, log) = run_duel("Start\n!\nQuit\n", &options);
    r.unwrap();
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(log.contains("claim alone"), "{log}");
}

/// A side that plays fixed lines (`None`: stays silent, as a hung player).
struct Scripted(Vec<Option<&'static str>>);

impl Side for Scripted {
    fn send(&mut self, _line: &str) -> bool {
        true
    }

    fn receive(&mut self, timeout: Duration) -> Answer {
        match self.0.remove(0) {
            Some(line) => Answer::Line(line.to_string()),
            None => {
                std::thread::sleep(timeout);
                Answer::Timeout
            }
        }
    }
}

#[test]
fn referee_rules_scripted_games() {
    let limit = Duration::from_millis(200);
    let game = |a: Vec<Option<&'static str>>, b: Vec<Option<&'static str>>| {
        let r = play_game([&mut Scripted(a), &mut Scripted(b)], 0, limit);
        (r.winner, r.reason)
    };
    assert_eq!(game(vec![Some("Ee5"), Some("Ee6")], vec![Some("Ef5")]), (0, Reason::NoSolution));
    assert_eq!(game(vec![Some("Ee5!")], vec![]), (1, Reason::FalseClaim));
    assert_eq!(game(vec![Some("Ee5")], vec![Some("Ee4")]), (0, Reason::Occupied));
    assert_eq!(game(vec![Some("E5e")], vec![]), (1, Reason::BadSyntax));
    assert_eq!(game(vec![Some("Ee5")], vec![None]), (0, Reason::Timeout));
}

#[test]
fn referee_survives_misbehaving_children() {
    let sh = |script: &str| vec!["sh".to_string(), "-c".to_string(), script.to_string()];
    let silent = sh("exec sleep 30");
    let garbage = sh("read x; echo 'hello there'; exec sleep 30");
    let quits = sh("exit 0");
    let good = sh("read x; echo Ee5; exec sleep 30");
    let clock = Instant::now();
    for (a, b, winner, reason) in [
        (&silent, &good, 1, Reason::Timeout),
        (&garbage, &good, 1, Reason::BadSyntax),
        (&quits, &good, 1, Reason::Crashed),
        (&good, &silent, 0, Reason::Timeout),
    ] {
        let report =
            run_match([a, b], &MatchOptions { time_limit: Duration::from_millis(500), ..MatchOptions::new(1, 7) })
                .unwrap();
        let g = &report.games[0];
        assert_eq!((g.winner, &g.reason), (winner, &reason), "{a:?} vs {b:?}");
    }
    assert!(clock.elapsed() < Duration::from_secs(10), "the referee waited on a dead player");
    assert!(referee_command(&[], &good, &MatchOptions::new(1, 1)).is_err());
    assert!(referee_command(&["/nonexistent/player".to_string()], &good, &MatchOptions::new(1, 1)).is_err());
}

/// Brute-force minimax over explicit solution sets, memoised by the sorted set.
fn brute(set: &[[u8; CELLS]], memo: &mut HashMap<Vec<[u8; CELLS]>, bool>) -> bool {
    if let Some(&w) = memo.get(set) {
        return w;
    }
    let mut win = false;
    'search: for cell in 0..CELLS {
        for d in 1..=9 {
            let child: Vec<[u8; CELLS]> = set.iter().filter(|s| s[cell] == d).copied().collect();
            if child.is_empty() || child.len() == set.len() {
                continue;
            }
            if child.len() == 1 || !brute(&child, memo) {
                win = true;
                break 'search;
            }
        }
    }
    memo.insert(set.to_vec(), win);
    win
}

/// Positions with 2..=30 solutions, blanked out of random solutions.
fn small_endgames(count: usize, seed: u64) -> Vec<Vec<[u8; CELLS]>> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let full = sudoku::sample_solution(&sudoku::Grid::empty(3, 3).unwrap(), rng.random::<u64>() | 1).unwrap();
        let mut cells = full.cells().to_vec();
        let mut order: Vec<usize> = (0..CELLS).collect();
        for i in (1..CELLS).rev() {
            order.swap(i, rng.random_range(0..=i));
        }
        let target = rng.random_range(2..=30);
        for &cell in &order {
            let keep = cells[cell];
            cells[cell] = 0;
            let n = Board::from_cells(&cells).unwrap().count(31);
            if n > target {
                cells[cell] = keep;
            }
        }
        let mut sols = Vec::new();
        sudoku::for_each_solution(&sudoku::Grid::from_cells(3, 3, cells).unwrap(), 31, |s| {
            sols.push(<[u8; CELLS]>::try_from(s).unwrap());
            std::ops::ControlFlow::Continue(())
        });
        if sols.len() >= 2 {
            out.push(sols);
        }
    }
    out
}

#[test]
fn endgame_agrees_with_brute_force() {
    // Random positions of 2 to 30 solutions are nearly all won by the side to move (58 to 60 in each 60 drawn), so
    // positions are drawn 60 at a time until both outcomes were checked a few times.
    let (mut wins, mut losses) = (0, 0);
    for seed in 5..25 {
        for sols in small_endgames(60, seed) {
            let mut memo = HashMap::new();
            let expected = brute(&sols, &mut memo);
            let r = solve_endgame(&sols, None).unwrap();
            assert_eq!(r.win, expected, "{} solutions", sols.len());
            let child: Vec<[u8; CELLS]> =
                sols.iter().filter(|s| s[r.best.cell as usize] == r.best.digit).copied().collect();
            assert!(!child.is_empty() && child.len() < sols.len(), "illegal best move");
            assert_eq!(child.len(), r.remaining);
            assert_eq!(r.best.claim, child.len() == 1);
            if r.win {
                wins += 1;
                assert!(child.len() == 1 || !brute(&child, &mut memo), "the winning move does not win");
            } else {
                losses += 1;
            }
        }
        if wins >= 3 && losses >= 3 {
            return;
        }
    }
    panic!("{wins} wins and {losses} losses: the positions are not varied");
}

fn check_clean(report: &referee::MatchReport, time_limit: Duration) {
    for g in &report.games {
        assert_eq!(g.reason, Reason::TrueClaim, "game ended by {} after {:?}", g.reason, g.moves);
        assert!(g.time.iter().all(|&t| t < time_limit));
    }
}

#[test]
fn self_play_is_legal_and_in_time() {
    // 100 games, as the issue asks, on a 5 s clock to keep the test short: the engine budgets
    // against whatever clock it has (keeping its 3 s margin), so this is the tight case for
    // its time keeping. Games run two at a time.
    let limit = Duration::from_secs(5);
    let engine = DuelOptions { samples: 20_000, ..DuelOptions::default() };
    let clock = Instant::now();
    let report = in_process_match(&engine, &engine, 100, 9, limit);
    assert_eq!(report.games.len(), 100);
    check_clean(&report, limit);
    eprintln!("{}({:.1} s)", report.table(), clock.elapsed().as_secs_f64());
}

#[test]
fn engine_beats_the_random_player() {
    let engine = DuelOptions::default();
    let random = DuelOptions { random_player: true, ..DuelOptions::default() };
    let report = in_process_match(&engine, &random, 20, 4, TIME_LIMIT);
    check_clean(&report, TIME_LIMIT);
    assert!(report.wins(0) >= 19, "{}", report.table());
}

/// The scratch build's player binary (`player duel`), or the project's (`autoplay duel sudoku`),
/// next to the test executable; `SUDOKU_DUEL_PLAYER` (a command line) overrides both.
fn player_command() -> Vec<String> {
    if let Ok(cmd) = std::env::var("SUDOKU_DUEL_PLAYER") {
        return cmd.split_whitespace().map(String::from).collect();
    }
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().unwrap().parent().unwrap();
    for (name, args) in [("player", &["duel"][..]), ("autoplay", &["duel", "sudoku"][..])] {
        let path = dir.join(name);
        if path.exists() {
            let mut cmd = vec![path.to_string_lossy().into_owned()];
            cmd.extend(args.iter().map(|a| a.to_string()));
            return cmd;
        }
    }
    panic!("no player binary next to {}: build it, or set SUDOKU_DUEL_PLAYER", dir.display());
}

/// A side that waits `delay` before taking each message: an opponent that takes its time (NineDigits thinks 12 s a
/// game), so that a game lasts longer on the wall clock than the other player's whole clock.
struct Slow<S: Side> {
    side: S,
    delay: Duration,
}

impl<S: Side> Side for Slow<S> {
    fn send(&mut self, line: &str) -> bool {
        std::thread::sleep(self.delay);
        self.side.send(line)
    }

    fn receive(&mut self, timeout: Duration) -> Answer {
        self.side.receive(timeout)
    }
}

#[test]
fn the_clock_holds_against_a_slow_opponent() {
    // The player program on an 8 s clock (5 s to think, after its 3 s reserve) against the engine waiting 400 ms
    // before each of its turns. The referee counts the player's time from each line sent to the answer read, pipes,
    // process start and scheduling included; the player counts only what it sees, so this is where it could lose
    // on time. A player whose clock ran while the opponent thinks would stop thinking instead: it must still use a
    // good part of its 5 s (the exact endgame alone takes more).
    let limit = Duration::from_secs(8);
    let mut command = player_command();
    command.extend(["--time-limit".to_string(), limit.as_secs().to_string()]);
    let mut used = Duration::ZERO;
    for first in 0..2 {
        let mut player = Process::spawn(&command, 11 + first as u64, None).unwrap();
        let engine =
            InProcess::new(DuelOptions { seed: Some(5 + first as u64), time_limit: limit, ..DuelOptions::default() });
        let mut opponent = Slow { side: engine, delay: Duration::from_millis(400) };
        let clock = Instant::now();
        let game = play_game([&mut player, &mut opponent], first, limit);
        player.finish();
        let wall = clock.elapsed();
        let times = game.time;
        assert_eq!(
            game.reason,
            Reason::TrueClaim,
            "ended by {} of side {}, times {times:?}",
            game.reason,
            1 - game.winner
        );
        assert!(game.time[0] < limit - Duration::from_secs(1), "the player used {:?} of {limit:?}", game.time[0]);
        assert!(wall > limit, "the game took {wall:?} of wall clock, no more than the player's clock");
        eprintln!("game {first}: the player used {:?} by the referee's clock; the game took {wall:?}", game.time[0]);
        used = used.max(game.time[0]);
    }
    assert!(used > Duration::from_secs(1), "the player thought at most {used:?} a game: its clock ran while it waited");
}

#[test]
fn referee_runs_real_players() {
    let engine = player_command();
    let mut random = engine.clone();
    random.push("--random".to_string());
    let table = referee_command(&engine, &random, &MatchOptions::new(4, 3)).unwrap();
    assert!(table.contains("true claim"), "{table}");
    let a_line = table.lines().find(|l| l.starts_with("A ")).unwrap();
    let wins: usize = a_line.split_whitespace().nth(1).unwrap().parse().unwrap();
    assert_eq!(wins, 4, "{table}");
}

#[test]
#[ignore = "timing report: cargo test --release -- --ignored --nocapture endgame_timings"]
fn endgame_timings() {
    let mut rng = StdRng::seed_from_u64(3);
    for (lo, hi) in [(400, 650), (4_000, 6_500)] {
        for _ in 0..10 {
            let (_, sols) = position_with_solutions(lo, hi, &mut rng).unwrap();
            let clock = Instant::now();
            let r = solve_endgame(&sols, None).unwrap();
            eprintln!(
                "{} solutions: win {} nodes {} in {:.2} ms",
                sols.len(),
                r.win,
                r.nodes,
                clock.elapsed().as_secs_f64() * 1e3
            );
        }
    }
}

/// The closed forms the endgame relies on, against brute force: a position of 2 or 3
/// solutions is won (it has a move keeping one); a position of 4 or 5 solutions without
/// such a move is lost.
#[test]
fn small_positions_follow_the_closed_forms() {
    let (mut lost, mut checked) = (0, 0);
    for sols in small_endgames(200, 21) {
        // Every subset reachable in one or two moves, to get many small positions.
        let mut sets = vec![sols.clone()];
        for cell in 0..CELLS {
            for d in 1..=9 {
                let child: Vec<[u8; CELLS]> = sols.iter().filter(|s| s[cell] == d).copied().collect();
                if child.len() >= 2 && child.len() < sols.len() {
                    sets.push(child);
                }
            }
        }
        for set in sets.iter().filter(|s| s.len() <= 5) {
            let single = (0..CELLS).any(|c| (1..=9).any(|d| set.iter().filter(|s| s[c] == d).count() == 1));
            let win = brute(set, &mut HashMap::new());
            checked += 1;
            if set.len() <= 3 {
                assert!(single && win, "{} solutions", set.len());
            } else if !single {
                assert!(!win, "{} solutions without a one-solution move", set.len());
                lost += 1;
            }
            assert_eq!(solve_endgame(set, None).unwrap().win, win);
        }
    }
    assert!(checked > 100 && lost > 0, "{checked} positions, {lost} lost");
}

/// Larger positions (up to about 450 solutions, so the solver works over frames of several
/// widths and narrows them) against brute force.
#[test]
fn endgame_agrees_with_brute_force_on_larger_positions() {
    let mut rng = StdRng::seed_from_u64(8);
    for (lo, hi) in [(40, 120), (120, 300), (300, 450)] {
        for _ in 0..3 {
            let (_, sols) = position_with_solutions(lo, hi, &mut rng).unwrap();
            let clock = Instant::now();
            let expected = brute(&sols, &mut HashMap::new());
            let r = solve_endgame(&sols, None).unwrap();
            eprintln!(
                "{} solutions: win {expected}, brute force {:.0} ms",
                sols.len(),
                clock.elapsed().as_secs_f64() * 1e3
            );
            assert_eq!(r.win, expected, "{} solutions", sols.len());
            let child: Vec<[u8; CELLS]> =
                sols.iter().filter(|s| s[r.best.cell as usize] == r.best.digit).copied().collect();
            assert_eq!(child.len(), r.remaining);
            if r.win && child.len() > 1 {
                // The position left is lost: the solver must say so too.
                assert!(!brute(&child, &mut HashMap::new()), "the winning move does not win");
                assert!(!solve_endgame(&child, None).unwrap().win, "{} solutions after the winning move", child.len());
            }
        }
    }
}
