//! The first position's moves searched by one thread per processor: threads take moves in order, join a move
//! another thread has searched long, share its replies by claims, and stop each other's searches of settled
//! moves.

use super::*;

impl<'a> Search<'a> {
    /// [`settle`](Search::settle) on `threads` threads: they take the open moves `open` in
    /// order (each searched whole); a thread done with a move joins one another thread has
    /// searched for `join_after` ([`JOIN_AFTER`]) or more (or any, when none is left to
    /// take), the two sharing its replies by claims (see [`Search::share`]); a move settled
    /// by one thread stops the others' search of it, and the first thread to find a lost
    /// move stops them all. (Joining long searches spares the work on moves after a winning
    /// one, which is among the costliest, while it is searched: 10-30% less time on the
    /// slowest position.)
    pub(super) fn settle_parallel<const W: usize>(
        &mut self,
        frame: &Frame,
        hash: u64,
        kids: &[Kid<W>],
        open: Vec<Open>,
        threads: usize,
    ) -> Option<Verdict<W>> {
        let next = AtomicUsize::new(0);
        let stop = AtomicBool::new(false);
        let aborted = AtomicBool::new(false);
        let winner: Mutex<Option<Kid<W>>> = Mutex::new(None);
        let nodes = AtomicU64::new(0);
        // Per open move: settled (by any thread), and the claims on its replies.
        let done: Vec<AtomicBool> = open.iter().map(|_| AtomicBool::new(false)).collect();
        let claims: Vec<Mutex<HashSet<u64>>> = open.iter().map(|_| Mutex::new(HashSet::new())).collect();
        // Per thread: the open move it is searching (`usize::MAX` for none), and since when
        // (microseconds after `clock`).
        let busy: Vec<AtomicUsize> = (0..threads).map(|_| AtomicUsize::new(usize::MAX)).collect();
        let since: Vec<AtomicU64> = (0..threads).map(|_| AtomicU64::new(0)).collect();
        let clock = Instant::now();
        let (sols, table, deadline, join_after) = (self.sols, self.table, self.deadline, self.join_after);
        let stops: Vec<&AtomicBool> = self.stops.iter().copied().chain([&stop]).collect();
        let work = |me: usize| {
            let mut search = Search {
                sols,
                table,
                deadline,
                join_after,
                stops: stops.clone(),
                share: None,
                nodes: 0,
                aborted: false,
            };
            let mut won = vec![false; kids.len()];
            let mut killer = None;
            while !stop.load(Relaxed) {
                // The move another thread has searched longest, when for `join_after` or
                // more; else the next move; else any move another thread is searching.
                let now = clock.elapsed().as_micros() as u64;
                let others = || {
                    (0..threads)
                        .filter(|&t| t != me)
                        .map(|t| (busy[t].load(Relaxed), since[t].load(Relaxed)))
                        .filter(|&(j, _)| j < open.len() && !done[j].load(Relaxed))
                };
                let long = others()
                    .filter(|&(_, t)| now.saturating_sub(t) >= join_after.as_micros() as u64)
                    .min_by_key(|&(_, t)| t);
                let i = match long.map(|(j, _)| j) {
                    Some(j) => j,
                    None => match next.fetch_add(1, Relaxed) {
                        i if i < open.len() => i,
                        _ => match others().next() {
                            Some((j, _)) => j,
                            None => break,
                        },
                    },
                };
                let (index, h) = (open[i].index as usize, open[i].hash);
                let kid = kids[index];
                let result = match table.get(h) {
                    _ if won[index] => Some(Some(kid.mask)),
                    Some(true) => Some(Some(kid.mask)),
                    Some(false) => Some(None),
                    None => {
                        since[me].store(clock.elapsed().as_micros() as u64, Relaxed);
                        busy[me].store(i, Relaxed);
                        let result = search.first_move(&done[i], &claims[i], |s| s.child(frame, &kid, kids, h, killer));
                        busy[me].store(usize::MAX, Relaxed);
                        result
                    }
                };
                match result {
                    // Refuted (the reply is only known when this thread refuted it).
                    Some(Some(reply)) => {
                        done[i].store(true, Relaxed);
                        if reply != kid.mask {
                            killer = search.refuted(frame, kids, &kid, &reply, &mut won);
                            // Moves the refutation settles that another thread is searching.
                            for b in &busy {
                                let j = b.load(Relaxed);
                                if j < open.len() && table.get(open[j].hash) == Some(true) {
                                    done[j].store(true, Relaxed);
                                }
                            }
                        }
                    }
                    Some(None) => {
                        winner.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(kid);
                        stop.store(true, Relaxed);
                    }
                    // Settled by another thread meanwhile: go on.
                    None if done[i].load(Relaxed)
                        && !stop.load(Relaxed)
                        && deadline.is_none_or(|t| Instant::now() < t) => {}
                    None => {
                        aborted.store(true, Relaxed);
                        break;
                    }
                }
            }
            nodes.fetch_add(search.nodes, Relaxed);
        };
        std::thread::scope(|scope| {
            for t in 1..threads {
                scope.spawn(move || work(t));
            }
            work(0);
        });
        self.nodes += nodes.into_inner();
        if let Some(kid) = winner.into_inner().unwrap_or_else(|e| e.into_inner()) {
            self.table.insert(hash, true);
            return Some(Verdict::Win(kid));
        }
        if aborted.into_inner() {
            self.aborted = true;
            return None;
        }
        self.table.insert(hash, false);
        Some(Verdict::Loss)
    }

    /// Runs `search` (of a first move searched among threads) under the stop `done` (set
    /// when another thread settles the move) and with `claims` on the move's replies, and
    /// leaves this search ready for the next move: a result is proven even when the stop
    /// came during its last expansions, and that stop must not end the next move.
    pub(super) fn first_move<R>(
        &mut self,
        done: &'a AtomicBool,
        claims: &'a Mutex<HashSet<u64>>,
        search: impl FnOnce(&mut Self) -> R,
    ) -> R {
        self.stops.push(done);
        self.share = Some(claims);
        let result = search(self);
        self.aborted = false;
        self.stops.pop();
        self.share = None;
        result
    }
}
