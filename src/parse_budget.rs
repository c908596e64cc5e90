//! Bounds the memory taken by syntax trees: a syntax tree takes 50 to 125 times the bytes of
//! its text, so parsing waits while the texts being parsed on other threads add up to more than
//! the budget. Small files never wait; a large file waits until it has the budget to itself.

use std::sync::{Condvar, Mutex, PoisonError};

pub(crate) struct ParseBudget {
    limit: usize,
    in_use: Mutex<usize>,
    freed: Condvar,
}

/// Budget held while one file is parsed; given back on drop (also on panic).
pub(crate) struct Reservation<'a> {
    budget: &'a ParseBudget,
    bytes: usize,
}

impl ParseBudget {
    pub(crate) fn new(limit: usize) -> Self {
        ParseBudget {
            limit,
            in_use: Mutex::new(0),
            freed: Condvar::new(),
        }
    }

    /// Wait until `bytes` fit in the budget, or nothing else is being parsed (a file larger
    /// than the whole budget is parsed alone).
    pub(crate) fn reserve(&self, bytes: usize) -> Reservation<'_> {
        let mut in_use = self.in_use.lock().unwrap_or_else(PoisonError::into_inner);
        while *in_use > 0 && *in_use + bytes > self.limit {
            in_use = self
                .freed
                .wait(in_use)
                .unwrap_or_else(PoisonError::into_inner);
        }
        *in_use += bytes;
        Reservation {
            budget: self,
            bytes,
        }
    }
}

impl Drop for Reservation<'_> {
    fn drop(&mut self) {
        let mut in_use = self
            .budget
            .in_use
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        *in_use -= self.bytes;
        self.budget.freed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn texts_in_flight_stay_within_the_budget() {
        let budget = ParseBudget::new(100);
        let in_flight = AtomicUsize::new(0);
        let peak = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for i in 0..8 {
                let (budget, in_flight, peak) = (&budget, &in_flight, &peak);
                s.spawn(move || {
                    for _ in 0..50 {
                        let bytes = if i == 0 { 150 } else { 10 + i * 7 };
                        let _r = budget.reserve(bytes);
                        let now = in_flight.fetch_add(bytes, Ordering::SeqCst) + bytes;
                        peak.fetch_max(now, Ordering::SeqCst);
                        assert!(now <= 100 || now == bytes, "{now} bytes in flight");
                        std::thread::yield_now();
                        in_flight.fetch_sub(bytes, Ordering::SeqCst);
                    }
                });
            }
        });
        assert_eq!(*budget.in_use.lock().unwrap(), 0);
        assert!(peak.load(Ordering::SeqCst) > 0);
    }
}
