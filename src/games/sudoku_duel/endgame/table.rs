//! The transposition table: verdicts of searched positions by hash, shared lock-free by the threads, of
//! fixed size by the number of solutions, and kept (cleared) for the next search of the same size.

use super::*;

/// Results by position hash, shared by the search threads: a flat open-addressing table
/// of 64-bit words, bit 0 set in every used slot, bit 1 the result (won for the player to
/// move), bits 2.. the hash. Its size is fixed; when the slots near a hash are all taken,
/// the result is not kept (it is a proven fact either way, only work is lost).
pub(super) struct Table {
    pub(super) slots: Box<[AtomicU64]>,
}

/// The slots of the last search's table, kept for the next search. Memory the process
/// has touched before is cheaper to clear than fresh memory, which the kernel has to
/// zero (with transparent huge pages, 2 MiB at a time).
pub(super) static SPARE_TABLE: Mutex<Option<Box<[AtomicU64]>>> = Mutex::new(None);

impl Drop for Table {
    fn drop(&mut self) {
        let slots = std::mem::take(&mut self.slots);
        *SPARE_TABLE.lock().unwrap_or_else(|e| e.into_inner()) = Some(slots);
    }
}

/// How far from its home slot an entry may be.
pub(super) const PROBES: usize = 16;

impl Table {
    /// A table with `slots` slots (a power of two): the last search's table when it has
    /// that size, cleared.
    pub(super) fn new(slots: usize) -> Table {
        let spare = SPARE_TABLE.lock().unwrap_or_else(|e| e.into_inner()).take();
        match spare {
            Some(mut kept) if kept.len() == slots => {
                kept.iter_mut().for_each(|s| *s.get_mut() = 0);
                Table { slots: kept }
            }
            _ => Table { slots: (0..slots).map(|_| AtomicU64::new(0)).collect() },
        }
    }

    #[inline]
    pub(super) fn key(hash: u64) -> u64 {
        hash & !3
    }

    #[inline]
    pub(super) fn home(&self, hash: u64) -> usize {
        (hash >> 20) as usize & (self.slots.len() - 1)
    }

    #[inline]
    pub(super) fn get(&self, hash: u64) -> Option<bool> {
        let (mask, key) = (self.slots.len() - 1, Table::key(hash));
        let mut i = self.home(hash);
        for _ in 0..PROBES {
            let slot = self.slots[i].load(Relaxed);
            if slot == 0 {
                return None;
            }
            if slot & !3 == key {
                return Some(slot & 2 != 0);
            }
            i = (i + 1) & mask;
        }
        None
    }

    /// Starts reading the home slot of `hash` into the cache.
    #[inline]
    pub(super) fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.slots[self.home(hash)].as_ptr() as *const i8;
            // SAFETY: a prefetch reads nothing that Rust sees; the pointer is in the table.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p) };
        }
    }

    /// Records `win` for `hash` (keeps an existing entry).
    #[inline]
    pub(super) fn insert(&self, hash: u64, win: bool) {
        let (mask, key) = (self.slots.len() - 1, Table::key(hash));
        let entry = key | 1 | if win { 2 } else { 0 };
        let mut i = self.home(hash);
        for _ in 0..PROBES {
            match self.slots[i].compare_exchange(0, entry, Relaxed, Relaxed) {
                Ok(_) => return,
                Err(slot) if slot & !3 == key => return,
                Err(_) => i = (i + 1) & mask,
            }
        }
    }
}
