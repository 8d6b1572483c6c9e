//! Tests of the endgame's parts against plain versions: packing, gathering, the one-solution test, the table
//! kept between searches, and the threads.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::*;

/// A table kept from one search starts the next one empty. (Other tests' tables may
/// take the spare's place between the two here; then the second table is new, and
/// empty too. Their smallest size is 2^16 slots; this one is smaller.)
#[test]
fn kept_table_is_cleared() {
    for round in 0..20u64 {
        let hashes: Vec<u64> = (1..=100).map(|i: u64| (i + 100 * round).wrapping_mul(0x9E37_79B9_7F4A_7C15)).collect();
        {
            let table = Table::new(1 << 10);
            hashes.iter().for_each(|&h| table.insert(h, true));
            assert!(hashes.iter().all(|&h| table.get(h) == Some(true)));
        }
        let table = Table::new(1 << 10);
        assert!(
            hashes.iter().all(|&h| table.get(h).is_none()),
            "round {round}: an entry of the last search is still there"
        );
    }
}

/// Threads joining each other's first moves at once (the most replies shared by claims,
/// and the most searches stopped halfway by a move settled elsewhere) reach the usual
/// verdicts, and their winning moves win. (Needs two processors to test anything.)
#[test]
fn joining_at_once_agrees() {
    let positions = crate::bench::sudoku_duel::endgame_positions(300, 2000, 40, 21);
    let mut wins = 0;
    for sols in &positions {
        let usual = solve_endgame(sols, None).unwrap();
        let joining = solve_joining_after(sols, None, Duration::ZERO).unwrap();
        assert_eq!(joining.win, usual.win, "{} solutions", sols.len());
        if joining.win {
            wins += 1;
            let child: Vec<[u8; CELLS]> =
                sols.iter().filter(|s| s[joining.best.cell as usize] == joining.best.digit).copied().collect();
            assert!(child.len() == 1 || !solve_endgame(&child, None).unwrap().win, "the winning move does not win");
        }
    }
    assert!(wins > 0 && wins < positions.len(), "{wins} wins of {}: the positions are not varied", positions.len());
}

/// A random set of `W` words, about a quarter of its bits set.
fn sparse<const W: usize>(rng: &mut StdRng) -> [u64; W] {
    std::array::from_fn(|_| rng.random::<u64>() & rng.random::<u64>())
}

/// `gather` keeps the moves keeping 1..below solutions, in order, and tells whether one
/// keeps a single solution; `sort_dedup` then keeps one move of each set, by count (through
/// the hash set up to four words, the sort beyond).
#[test]
fn moves_are_gathered_distinct_and_sorted() {
    fn check<const W: usize>(rng: &mut StdRng) {
        for round in 0..200 {
            let pool: Vec<[u64; W]> = (0..rng.random_range(1..40)).map(|_| sparse::<W>(rng)).collect();
            let len = rng.random_range(0..256);
            let below = rng.random_range(2..64 * W as u32);
            let made: Vec<Kid<W>> = (0..len)
                .map(|j| {
                    let mut mask = pool[rng.random_range(0..pool.len())];
                    if rng.random_range(0..8) == 0 {
                        mask = [0; W];
                        mask[rng.random_range(0..W)] = 1 << rng.random_range(0..64);
                    }
                    Kid { mask, count: count(&mask), cell: j as u8, digit: 1 }
                })
                .collect();
            let (mut kids, single) = gather(len, below, |j| made[j]);
            let expected: Vec<Kid<W>> = made.iter().filter(|k| k.count >= 1 && k.count < below).copied().collect();
            assert_eq!(
                kids.iter().map(|k| k.cell).collect::<Vec<_>>(),
                expected.iter().map(|k| k.cell).collect::<Vec<_>>(),
                "round {round}"
            );
            assert_eq!(single, made.iter().any(|k| k.count == 1));
            sort_dedup(&mut kids);
            let sets: HashSet<[u64; W]> = expected.iter().map(|k| k.mask).collect();
            assert_eq!(kids.len(), sets.len(), "round {round}: repeats kept or sets lost");
            assert_eq!(kids.iter().map(|k| k.mask).collect::<HashSet<_>>(), sets);
            assert!(kids.windows(2).all(|p| p[0].count <= p[1].count), "round {round}: not ordered by count");
            assert!(kids.iter().all(|k| made[k.cell as usize].mask == k.mask), "round {round}: a move lost its cell");
        }
    }
    let mut rng = StdRng::seed_from_u64(12);
    check::<1>(&mut rng);
    check::<2>(&mut rng);
    check::<4>(&mut rng);
    check::<8>(&mut rng);
}

/// Both ways of packing (bytes through the table, words through PEXT where the CPU has
/// it) agree with packing bit by bit.
#[test]
fn packing_agrees_with_bit_by_bit() {
    let mut rng = StdRng::seed_from_u64(7);
    for _ in 0..200 {
        let set = sparse::<4>(&mut rng);
        let part = sparse::<4>(&mut rng);
        let expected: [u64; 4] = repack(&part, &set);
        assert_eq!(unpack(&expected, &set), and(&part, &set));
        assert_eq!(Packer::with(&set, false).pack::<4>(&part), expected);
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("bmi2") {
            assert_eq!(Packer::with(&set, true).pack::<4>(&part), expected);
        }
    }
}

/// A first move's search leaves no stop standing for the thread's next move, whether
/// the stop cut it short or the move was settled all the same (stops are read every
/// 256 nodes, and the last expansions may still settle the move). A stop once stayed
/// standing after a settled move, and the next move's search then gave no verdict.
#[test]
fn first_move_leaves_no_stop_standing() {
    let positions = crate::bench::sudoku_duel::endgame_positions(200, 500, 3, 9);
    let raised = AtomicBool::new(true);
    let claims = Mutex::new(HashSet::new());
    let mut read = 0;
    for sols in &positions {
        let ids: Vec<u64> = (1..=sols.len() as u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15)).collect();
        let frame = Frame { ids };
        let kids = first_moves::<8>(sols);
        let table = Table::new(1 << 16);
        for kid in &kids {
            for start in (0..256).step_by(15) {
                let mut search = Search {
                    sols,
                    table: &table,
                    deadline: None,
                    join_after: JOIN_AFTER,
                    stops: Vec::new(),
                    share: None,
                    nodes: start,
                    aborted: false,
                };
                let hash = Search::hash(&frame, &kid.mask);
                search.first_move(&raised, &claims, |s| s.child(&frame, kid, &kids, hash, None));
                // Past node 256 the search read the raised stop.
                if search.nodes >= 256 {
                    read += 1;
                    assert!(!search.aborted, "a stop is still standing after the move");
                    assert!(search.stops.is_empty() && search.share.is_none());
                }
            }
        }
    }
    assert!(read > 0, "no search read its stop");
}

/// Whether `a ∩ b` has exactly one element: one word of it is not zero, and that one is a
/// power of two.
fn single<const W: usize>(a: &[u64; W], b: &[u64; W]) -> bool {
    let (mut nonzero, mut more) = (0u32, 0u64);
    for i in 0..W {
        let x = a[i] & b[i];
        nonzero += (x != 0) as u32;
        more |= x & x.wrapping_sub(1);
    }
    nonzero == 1 && more == 0
}

/// The single test over columns (vectorised where it can be) agrees with the pairwise
/// one, at one and several words.
#[test]
fn single_test_agrees() {
    fn check<const W: usize>(rng: &mut StdRng, seen: &mut [u32; 2]) {
        for len in 0..40 {
            let kids: Vec<Kid<W>> =
                (0..len).map(|_| Kid { mask: sparse::<W>(rng), count: 0, cell: 0, digit: 0 }).collect();
            let cols = columns(&kids);
            for _ in 0..20 {
                let c = and(&sparse::<W>(rng), &sparse::<W>(rng));
                let pairwise = kids.iter().any(|k| single(&c, &k.mask));
                assert_eq!(has_single(&c, &cols), pairwise);
                assert_eq!(has_single_any(&c, &cols), pairwise);
                seen[pairwise as usize] += 1;
            }
        }
    }
    let mut seen = [0; 2];
    let mut rng = StdRng::seed_from_u64(11);
    check::<1>(&mut rng, &mut seen);
    check::<2>(&mut rng, &mut seen);
    check::<4>(&mut rng, &mut seen);
    assert!(seen[0] > 100 && seen[1] > 100, "both answers tested: {seen:?}");
}

/// A search past its deadline stops on every thread and gives no verdict, rather than a guess: on positions of
/// about 5,000 solutions whose whole search expands at least 50,000 positions, a deadline already passed stops it
/// at each thread's first look at the clock (every 1,024 positions; counted, not timed, so a busy machine changes
/// nothing).
#[test]
fn endgame_stops_at_its_deadline() {
    let threads = std::thread::available_parallelism().map_or(1, |t| t.get()) as u64;
    let first_looks = 2 * 1024 * threads;
    let mut rng = StdRng::seed_from_u64(5);
    let mut checked = 0;
    for _ in 0..40 {
        let (_, sols) = crate::bench::sudoku_duel::position_with_solutions(4_000, 6_500, &mut rng).unwrap();
        let whole = solve_joining_after(&sols, None, JOIN_AFTER).unwrap();
        if whole.nodes < 50_000.max(4 * first_looks) {
            continue;
        }
        match solve_joining_after(&sols, Some(Instant::now()), JOIN_AFTER) {
            Err(NoVerdict::Stopped { nodes }) => assert!(
                nodes <= first_looks,
                "{} solutions: stopped after {nodes} positions (the whole search: {})",
                sols.len(),
                whole.nodes
            ),
            other => panic!("{} solutions: {other:?}", sols.len()),
        }
        checked += 1;
        if checked == 3 {
            return;
        }
    }
    panic!("only {checked} positions took 50,000 nodes or more");
}
