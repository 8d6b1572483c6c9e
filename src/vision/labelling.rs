//! Labelling marks under a constraint: what every reader shares that names what it sees by what the game must be
//! (a Sudoku's digits by the rules, a Cribbage table's ranks by the deal), each game supplying only its
//! constraint.
//!
//! Marks that look alike are one *class* and take one label ([`Classes`]); a class costs, per label, the sum of
//! its marks' distances to that label ([`Classes::costs`]), so that many alike marks outvote one doubtful one. The
//! labelling is the one of least total cost that the game's constraint allows: found here by a depth-first search
//! over each class's candidate labels, least cost first, bounded by the least cost the classes not yet labelled
//! could add ([`least_cost`]; sound because every class adds at least its cheapest candidate, so a branch whose
//! cost plus that floor reaches the best found cannot beat it), where the constraint is checked as labels are
//! placed ([`Constraint`]); or, where the constraint is an assignment with room per label (at most four cards of
//! a rank), by an assignment solver the game calls itself.

/// Marks grouped by likeness: each class's marks (indices into the caller's marks).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Classes {
    pub members: Vec<Vec<usize>>,
}

impl Classes {
    /// Each of `marks`, in order, joins the first class whose first mark it is `alike`; returns those that join
    /// none.
    pub fn join(&mut self, marks: impl IntoIterator<Item = usize>, alike: impl Fn(usize, usize) -> bool) -> Vec<usize> {
        let mut left = Vec::new();
        for m in marks {
            match self.members.iter_mut().find(|class| alike(class[0], m)) {
                Some(class) => class.push(m),
                None => left.push(m),
            }
        }
        left
    }

    /// Each of `marks`, in order, joins the first class whose first mark it is `alike`, or founds a class.
    pub fn found(&mut self, marks: impl IntoIterator<Item = usize>, alike: impl Fn(usize, usize) -> bool) {
        for m in marks {
            match self.members.iter_mut().find(|class| alike(class[0], m)) {
                Some(class) => class.push(m),
                None => self.members.push(vec![m]),
            }
        }
    }

    /// Each class's cost per label: the sum of its marks' (`mark_costs[mark][label]`).
    pub fn costs<const N: usize>(&self, mark_costs: &[[f64; N]]) -> Vec<[f64; N]> {
        self.members
            .iter()
            .map(|class| std::array::from_fn(|l| class.iter().map(|&m| mark_costs[m][l]).sum()))
            .collect()
    }

    /// Each mark's class (of `marks` marks; a mark in no class gets `None`).
    pub fn class_of(&self, marks: usize) -> Vec<Option<usize>> {
        let mut of = vec![None; marks];
        for (k, class) in self.members.iter().enumerate() {
            for &m in class {
                of[m] = Some(k);
            }
        }
        of
    }

    /// Each mark's label, its class's (`labels[class]`); `unlabelled` for a mark in no class.
    pub fn spread<L: Copy>(&self, labels: &[L], marks: usize, unlabelled: L) -> Vec<L> {
        let mut out = vec![unlabelled; marks];
        for (class, &label) in self.members.iter().zip(labels) {
            for &m in class {
                out[m] = label;
            }
        }
        out
    }
}

/// A game's constraint on a labelling, checked as the search places each class's label.
pub trait Constraint {
    /// Places `label` on `class` where the labels placed so far allow it (and returns true), else changes
    /// nothing and returns false.
    fn place(&mut self, class: usize, label: usize) -> bool;
    /// Takes back a label [`Self::place`] placed.
    fn lift(&mut self, class: usize, label: usize);
    /// With every searched class labelled (`labels`), whether the whole is allowed, and what it costs besides
    /// the classes' own costs (`None`: refused). It may label the classes after the searched ones itself.
    fn complete(&mut self, labels: &mut [usize]) -> Option<f64>;
}

/// How far a search may go: steps (labels tried), and complete labellings checked.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub steps: usize,
    pub completions: usize,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct Labelling {
    /// The least-cost labelling the constraint allows (its total cost, and each class's label), if any was found.
    pub best: Option<(f64, Vec<usize>)>,
    /// Whether the budget ran out before the search was done (so a missing or costly best may not be the least).
    pub out_of_budget: bool,
}

/// The least-cost labelling of the first `searched` classes (each takes one of its `candidates`, least cost first;
/// `costs[class][label]`), the rest left to [`Constraint::complete`], that `constraint` allows. The bound counts
/// every class's cheapest candidate, the rest's too: what `complete` adds must be at least their sum.
pub fn least_cost<const N: usize>(
    costs: &[[f64; N]],
    candidates: &[Vec<usize>],
    searched: usize,
    constraint: &mut impl Constraint,
    budget: Budget,
) -> Labelling {
    // The least cost the classes from k on can add: the bound.
    let mut rest = vec![0.0; costs.len() + 1];
    for k in (0..costs.len()).rev() {
        rest[k] = rest[k + 1] + candidates[k].first().map_or(0.0, |&l| costs[k][l]);
    }
    let mut search = Search {
        costs,
        candidates,
        searched,
        rest,
        labels: vec![0; costs.len()],
        best: None,
        steps: 0,
        completions: 0,
        budget,
    };
    search.run(0, 0.0, constraint);
    let out_of_budget = search.out_of_budget();
    Labelling { best: search.best, out_of_budget }
}

struct Search<'a, const N: usize> {
    costs: &'a [[f64; N]],
    candidates: &'a [Vec<usize>],
    searched: usize,
    rest: Vec<f64>,
    labels: Vec<usize>,
    best: Option<(f64, Vec<usize>)>,
    steps: usize,
    completions: usize,
    budget: Budget,
}

impl<const N: usize> Search<'_, N> {
    fn out_of_budget(&self) -> bool {
        self.steps >= self.budget.steps || self.completions >= self.budget.completions
    }

    fn run(&mut self, k: usize, cost: f64, constraint: &mut impl Constraint) {
        self.steps += 1;
        if self.out_of_budget() || self.best.as_ref().is_some_and(|(best, _)| cost + self.rest[k] >= *best) {
            return;
        }
        if k == self.searched {
            self.completions += 1;
            let Some(extra) = constraint.complete(&mut self.labels) else { return };
            let total = cost + extra;
            if self.best.as_ref().is_none_or(|(best, _)| total < *best) {
                self.best = Some((total, self.labels.clone()));
            }
            return;
        }
        for &label in &self.candidates[k] {
            if !constraint.place(k, label) {
                continue;
            }
            self.labels[k] = label;
            self.run(k + 1, cost + self.costs[k][label], constraint);
            constraint.lift(k, label);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No two classes may take one label.
    struct Distinct(Vec<bool>);

    impl Constraint for Distinct {
        fn place(&mut self, _: usize, label: usize) -> bool {
            !std::mem::replace(&mut self.0[label], true)
        }
        fn lift(&mut self, _: usize, label: usize) {
            self.0[label] = false;
        }
        fn complete(&mut self, _: &mut [usize]) -> Option<f64> {
            Some(0.0)
        }
    }

    #[test]
    fn alike_marks_make_one_class_and_its_cost_is_theirs_summed() {
        let mut classes = Classes::default();
        classes.found([0, 2], |_, _| false);
        let left = classes.join([1, 3, 4], |first, m| first == 0 && m != 4);
        assert_eq!(classes.members, vec![vec![0, 1, 3], vec![2]]);
        assert_eq!(left, vec![4]);
        let costs = classes.costs(&[[0.1, 0.5], [0.2, 0.5], [0.9, 0.0], [0.3, 0.5], [0.0, 0.0]]);
        assert!((costs[0][0] - 0.6).abs() < 1e-12 && (costs[0][1] - 1.5).abs() < 1e-12);
        assert_eq!(classes.spread(&['a', 'b'], 5, '?'), vec!['a', 'a', 'b', 'a', '?']);
        assert_eq!(classes.class_of(5), vec![Some(0), Some(0), Some(1), Some(0), None]);
    }

    /// Both classes are nearest label 0; the constraint gives it to the one that loses most without it.
    #[test]
    fn the_constraint_moves_the_class_that_costs_least_to_move() {
        let costs = [[0.1, 0.5, 0.9], [0.1, 0.2, 0.9]];
        let candidates = vec![vec![0, 1, 2], vec![0, 1, 2]];
        let budget = Budget { steps: 100, completions: 100 };
        let found = least_cost(&costs, &candidates, 2, &mut Distinct(vec![false; 3]), budget);
        assert_eq!(found.best.map(|(_, labels)| labels), Some(vec![0, 1]));
        assert!(!found.out_of_budget);
        let tight =
            least_cost(&costs, &candidates, 2, &mut Distinct(vec![false; 3]), Budget { steps: 2, completions: 1 });
        assert!(tight.out_of_budget);
        let none = least_cost(&costs, &[vec![0], vec![0]], 2, &mut Distinct(vec![false; 3]), budget);
        assert_eq!(none.best, None);
    }
}
