//! Link units and their scopes: which units' functions, fields and consts a unit's code may
//! reach (itself and the units it depends on, directly or not).
//!
//! Scopes are sets of bits closed over the direct dependencies, not lists: in a workspace that
//! is a chain of members, the lists of every member's transitive dependencies hold n²/2 entries,
//! and merging them once per member made linking quadratic.

/// The scope of every link unit, numbered from 0.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UnitScopes {
    /// 64-bit words per unit.
    words: usize,
    /// Unit `u`'s scope is `bits[u * words..(u + 1) * words]`.
    bits: Vec<u64>,
}

impl UnitScopes {
    /// `direct[u]`: the units `u` depends on directly (cycles allowed: dev-dependencies).
    pub fn new(direct: &[Vec<usize>]) -> UnitScopes {
        let units = direct.len();
        let words = units.div_ceil(64);
        let mut scopes = UnitScopes {
            words,
            bits: vec![0; units * words],
        };
        for (unit, deps) in direct.iter().enumerate() {
            scopes.insert(unit, unit);
            for &dep in deps {
                scopes.insert(unit, dep);
            }
        }
        scopes.close(direct);
        scopes
    }

    /// A unit's scope takes in the scopes of its direct dependencies, dependencies first (in
    /// the post-order of a depth-first walk: one pass for a graph without cycles), until
    /// nothing grows (a cycle of dev-dependencies takes another pass).
    fn close(&mut self, direct: &[Vec<usize>]) {
        let order = post_order(direct);
        let mut grown = true;
        while grown {
            grown = false;
            for &unit in &order {
                for &dep in &direct[unit] {
                    grown |= self.take_in(unit, dep);
                }
            }
        }
    }

    /// `unit`'s scope |= `dep`'s scope; whether it grew.
    fn take_in(&mut self, unit: usize, dep: usize) -> bool {
        if unit == dep {
            return false;
        }
        let mut grew = false;
        for w in 0..self.words {
            let from = self.bits[dep * self.words + w];
            let into = &mut self.bits[unit * self.words + w];
            grew |= from & !*into != 0;
            *into |= from;
        }
        grew
    }

    fn insert(&mut self, unit: usize, dep: usize) {
        self.bits[unit * self.words + dep / 64] |= 1 << (dep % 64);
    }

    /// How many units there are.
    pub fn len(&self) -> usize {
        self.bits.len().checked_div(self.words).unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.bits.is_empty()
    }

    /// Whether `unit`'s code may reach `dep`'s (true for itself). Units outside the table
    /// (files linked on their own) see only themselves.
    pub fn contains(&self, unit: usize, dep: usize) -> bool {
        if unit == dep {
            return true;
        }
        if unit >= self.len() || dep >= self.len() {
            return false;
        }
        self.bits[unit * self.words + dep / 64] & (1 << (dep % 64)) != 0
    }

    /// The units of `unit`'s scope, in the order of their numbers.
    pub fn members(&self, unit: usize) -> impl Iterator<Item = usize> + Clone + '_ {
        let row = match unit < self.len() {
            true => &self.bits[unit * self.words..(unit + 1) * self.words],
            false => &[][..],
        };
        let alone = (unit >= self.len()).then_some(unit);
        row.iter()
            .enumerate()
            .flat_map(|(w, &word)| {
                (0..64)
                    .filter(move |b| word & (1 << b) != 0)
                    .map(move |b| w * 64 + b)
            })
            .chain(alone)
    }
}

/// Every unit after the units it depends on (but within a cycle), by an iterative walk.
fn post_order(direct: &[Vec<usize>]) -> Vec<usize> {
    let mut visited = vec![false; direct.len()];
    let mut order = Vec::with_capacity(direct.len());
    for root in 0..direct.len() {
        if visited[root] {
            continue;
        }
        visited[root] = true;
        // (unit, how many of its dependencies have been looked at)
        let mut stack = vec![(root, 0)];
        while let Some((unit, next)) = stack.last_mut() {
            let unit = *unit;
            match direct[unit].get(*next) {
                Some(&dep) => {
                    *next += 1;
                    if dep < direct.len() && !visited[dep] {
                        visited[dep] = true;
                        stack.push((dep, 0));
                    }
                }
                None => {
                    order.push(unit);
                    stack.pop();
                }
            }
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scope_holds_the_units_reached_directly_or_not() {
        // 0 ← 1 ← 2, and 3 on its own; 4 and 5 depend on each other.
        let scopes = UnitScopes::new(&[vec![], vec![0], vec![1], vec![], vec![5], vec![4]]);
        let members = |u| scopes.members(u).collect::<Vec<_>>();
        assert_eq!(members(0), [0]);
        assert_eq!(members(1), [0, 1]);
        assert_eq!(members(2), [0, 1, 2]);
        assert_eq!(members(3), [3]);
        assert_eq!(members(4), [4, 5]);
        assert_eq!(members(5), [4, 5]);
        assert!(scopes.contains(2, 0) && !scopes.contains(0, 2) && !scopes.contains(3, 0));
        assert!(scopes.contains(9, 9) && !scopes.contains(9, 0));
        assert_eq!(members(9), [9]);
    }

    #[test]
    fn dependencies_numbered_after_their_dependents_are_reached_too() {
        // 0 → 1 → 2 → … → 69: the closure crosses a word boundary and runs against the order.
        let direct: Vec<Vec<usize>> = (0..70)
            .map(|u| if u < 69 { vec![u + 1] } else { vec![] })
            .collect();
        let scopes = UnitScopes::new(&direct);
        assert_eq!(scopes.members(0).count(), 70);
        assert_eq!(scopes.members(68).collect::<Vec<_>>(), [68, 69]);
        assert!(scopes.contains(0, 69) && !scopes.contains(69, 0));
    }
}
