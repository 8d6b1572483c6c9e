//! Tests of the solver: replayed lines, brute force on small states, known deals, the earlier solver, and the
//! bound's admissibility.

use super::super::cards::Card;
use super::super::deal::{deal, DealRng};
use super::super::rules::{score_line, score_line_from, Move};
use super::bound::{Bound, SINGLE, TRIPLE};
use super::*;

/// Plain exhaustive search over the rules engine: no memo, no merging.
fn brute_force(state: &State) -> u32 {
    let moves = state.legal_moves();
    if moves.is_empty() {
        return state.score;
    }
    moves
        .into_iter()
        .map(|mv| {
            let mut next = state.clone();
            next.play(mv).expect("legal move");
            brute_force(&next)
        })
        .max()
        .unwrap()
}

/// A random small state: columns of 0–4 cards (at most `max_cards` in all) drawn from a deck restricted to
/// a random window of ranks (narrow windows give long stacks, runs and sets), at most 4 of a rank.
fn random_state(rng: &mut DealRng, max_cards: usize) -> State {
    let width = 3 + rng.next(0, 11) as u8;
    let low = rng.next(0, u64::from(14 - width)) as u8;
    let mut pool: Vec<Card> = (low..low + width).flat_map(|r| [Card::new(Rank::new(r).unwrap()); 4]).collect();
    let mut columns: [Vec<Card>; 4] = Default::default();
    let mut left = max_cards;
    for column in &mut columns {
        let n = (rng.next(0, 5) as usize).min(left).min(pool.len());
        for _ in 0..n {
            let k = rng.next(0, pool.len() as u64) as usize;
            column.push(pool.swap_remove(k));
        }
        left -= n;
    }
    State { columns, stack: Vec::new(), score: 0 }
}

fn check(state: &State) {
    let best = brute_force(state);
    let solution = solve(state);
    assert_eq!(solution.score, best, "state {state:?}");
    assert_eq!(score_line_from(state, &solution.line), Ok(best), "state {state:?} line {}", solution.line);
}

#[test]
fn optimal_against_brute_force() {
    let mut rng = DealRng::new(12345);
    for _ in 0..400 {
        check(&random_state(&mut rng, 10));
    }
}

#[test]
fn mid_game_states_against_brute_force() {
    let mut rng = DealRng::new(777);
    let mut checked = 0;
    while checked < 300 {
        let mut state = random_state(&mut rng, 13);
        // A random legal prefix, stopping mid-stack or at a stack boundary.
        let steps = rng.next(0, 6);
        for _ in 0..steps {
            let moves = state.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.next(0, moves.len() as u64) as usize];
            state.play(mv).unwrap();
        }
        if state.cards_left() > 10 {
            continue;
        }
        check(&state);
        checked += 1;
    }
}

#[test]
fn forced_new_stack_at_the_start() {
    // Stack K K Q (30) and only a K playable: the line must start with `_`.
    let state = State::new(
        [vec![Card::new(Rank::KING)], Vec::new(), Vec::new(), Vec::new()],
        vec![Card::new(Rank::KING), Card::new(Rank::KING), Card::new(Rank::QUEEN)],
        5,
    )
    .unwrap();
    let solution = solve(&state);
    assert_eq!(solution.line, "_1");
    assert_eq!(solution.score, 5);
    let mut end = state.clone();
    assert_eq!(end.legal_moves(), vec![Move::NewStack]);
    end.play(Move::NewStack).unwrap();
    assert_eq!(solve(&end).line, "1");
    // A pair with the stack's top card is found from a mid-game stack.
    let state = State::new(
        [vec![Card::new(Rank::new(4).unwrap())], Vec::new(), Vec::new(), Vec::new()],
        vec![Card::new(Rank::new(4).unwrap())],
        0,
    )
    .unwrap();
    let solution = solve(&state);
    assert_eq!((solution.score, solution.line.as_str()), (2, "1"));
}

#[test]
fn known_deals() {
    for (n, best) in [(1, 110), (30, 109), (969, 126), (1031, 80)] {
        let d = deal(n);
        let solution = solve(&State::from(&d));
        assert_eq!(solution.score, best, "deal {n}");
        assert_eq!(score_line(&d, &solution.line), Ok(best), "deal {n}");
    }
}

/// The solver and the reference solver give `state` the same best score, and the solver's line reaches it.
fn assert_agrees_with_the_reference(state: &State, what: &str) {
    let reference = super::super::solver_reference::solve(state);
    let solution = solve(state);
    assert_eq!(solution.score, reference.score, "{what}");
    assert_eq!(score_line_from(state, &solution.line), Ok(solution.score), "{what}");
}

#[test]
fn agrees_with_the_reference_solver_on_deals_1_to_50() {
    for n in 1..=50 {
        assert_agrees_with_the_reference(&State::from(&deal(n)), &format!("deal {n}"));
    }
}

#[test]
fn agrees_with_the_reference_solver_mid_game() {
    // Random legal prefixes of real deals, stopping mid-stack or at a boundary, then solved by both.
    let mut rng = DealRng::new(4242);
    for n in 60..75 {
        let mut state = State::from(&deal(n));
        let steps = 5 + rng.next(0, 30);
        let mut played = 0;
        play_randomly(&mut state, &mut rng, |_, _| {
            played += 1;
            played <= steps
        });
        assert_agrees_with_the_reference(&state, &format!("deal {n} state {state:?}"));
    }
}

#[test]
fn re_solving_mid_game_keeps_the_score() {
    // Follow deal 969's best line for 20 cards, then re-solve: the continuation reaches the same total.
    let d = deal(969);
    let state = State::from(&d);
    let solution = solve(&state);
    let moves = super::super::rules::parse_line(&solution.line).unwrap();
    let mut mid = state.clone();
    let mut played = 0;
    for mv in moves {
        if played == 20 {
            break;
        }
        mid.play(mv).unwrap();
        played += usize::from(matches!(mv, Move::Play(_)));
    }
    let again = solve(&mid);
    assert_eq!(again.score, 126);
    assert_eq!(score_line_from(&mid, &again.line), Ok(126));
}

/// The bound of `state`, reached from `start` (empty stack) by `moves`, in the table built for `start`.
fn bound_of(start: &State, moves: &[Move], state: &State) -> u32 {
    let problem = Problem::new(start);
    let stride = problem.stride;
    let mut bound = Bound::default();
    bound.build(&problem.cols, &problem.len, &stride);
    let idx: usize = (0..4).map(|j| state.columns[j].len() * stride[j]).sum();
    // The columns of the cards of the current stack.
    let mut stack = Vec::new();
    for &mv in moves {
        match mv {
            Move::NewStack => stack.clear(),
            Move::Play(j) => stack.push(j),
        }
    }
    let n = state.stack.len();
    assert_eq!(n, stack.len());
    if n == 0 {
        return bound.get(idx, 0, 0, 0);
    }
    let top = &state.stack;
    let below = if n == 1 {
        SINGLE
    } else if n >= 3 && top[n - 1].rank == top[n - 2].rank && top[n - 2].rank == top[n - 3].rank {
        TRIPLE
    } else {
        stack[n - 2]
    };
    bound.get(idx, state.total() as usize, stack[n - 1], below)
}

/// Plays random legal moves from `state` while `more` says so (and some move is legal); returns them.
fn play_randomly(
    state: &mut State,
    rng: &mut DealRng,
    mut more: impl FnMut(&State, &mut DealRng) -> bool,
) -> Vec<Move> {
    let mut moves = Vec::new();
    while more(state, rng) {
        let legal = state.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[rng.next(0, legal.len() as u64) as usize];
        state.play(mv).unwrap();
        moves.push(mv);
    }
    moves
}

/// The bound after `moves` from `start` is at least the best score still to make (exhaustive search).
fn assert_bound_holds(start: &State, moves: &[Move], state: &State, what: &str) {
    let best = brute_force(state) - state.score;
    let bound = bound_of(start, moves, state);
    assert!(bound >= best, "{what}: bound {bound} < {best}: {start:?} then {moves:?}");
}

/// The bound of a state is at least the most points still to score from it (exhaustive search), on random
/// small states after random legal prefixes (mid-stack, on sets and runs, or at stack boundaries).
#[test]
fn bound_is_at_least_the_best_remaining_score() {
    let mut rng = DealRng::new(2024);
    let mut checked = 0;
    while checked < 300 {
        let start = random_state(&mut rng, 12);
        let mut state = start.clone();
        let steps = rng.next(0, 9);
        let mut played = 0;
        let moves = play_randomly(&mut state, &mut rng, |_, _| {
            played += 1;
            played <= steps
        });
        if state.cards_left() > 10 {
            continue;
        }
        assert_bound_holds(&start, &moves, &state, "random small state");
        checked += 1;
    }
}

/// The same on states of low ranks only (A–8), where runs of 5 to 7 cards are common: the run rule's
/// candidate cards `r3`, `r4`, `r5`, `r6` are all exercised.
#[test]
fn bound_holds_with_long_runs() {
    let mut rng = DealRng::new(77);
    let mut checked = 0;
    while checked < 400 {
        let low = rng.next(0, 2) as u8;
        let mut pool: Vec<Card> = (low..low + 7).flat_map(|r| [Card::new(Rank::new(r).unwrap()); 4]).collect();
        let mut columns: [Vec<Card>; 4] = Default::default();
        for column in &mut columns {
            for _ in 0..rng.next(1, 6) {
                let k = rng.next(0, pool.len() as u64) as usize;
                column.push(pool.swap_remove(k));
            }
        }
        let start = State { columns, stack: Vec::new(), score: 0 };
        let mut state = start.clone();
        let moves = play_randomly(&mut state, &mut rng, |s, rng| {
            s.cards_left() > 11 || (rng.next(0, 3) > 0 && s.cards_left() > 4)
        });
        assert_bound_holds(&start, &moves, &state, "low ranks");
        checked += 1;
    }
}

/// The same late in real deals (a few cards left), and the bound of a whole deal is at least its optimum.
#[test]
fn bound_holds_late_in_real_deals() {
    let mut rng = DealRng::new(31);
    for n in 1..=40 {
        let start = State::from(&deal(n));
        let mut state = start.clone();
        let moves = play_randomly(&mut state, &mut rng, |s, _| s.cards_left() > 9);
        assert_bound_holds(&start, &moves, &state, &format!("deal {n}"));
    }
    for n in [1, 30, 969, 1031] {
        let start = State::from(&deal(n));
        assert!(bound_of(&start, &[], &start) >= solve(&start).score, "deal {n}");
    }
}
