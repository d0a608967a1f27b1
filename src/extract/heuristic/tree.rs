//! Per-element aggregates over the element tree (elements are in document order, so a
//! parent comes before its children): sums from children to parents, and flags passed
//! from an element to its whole subtree.

use crate::extract::dom::{PageDom, NO_ELEM};

/// Whether each element is, or lies inside, an element for which `own` holds (one pass
/// in document order: parents come before their children).
pub(super) fn in_subtrees(page: &PageDom, own: impl Fn(usize) -> bool) -> Vec<bool> {
    let mut inside = vec![false; page.elements.len()];
    for (i, e) in page.elements.iter().enumerate() {
        inside[i] = (e.parent != NO_ELEM && inside[e.parent as usize]) || own(i);
    }
    inside
}

/// Content evidence of the outermost elements of `inside` (each subtree counted once).
pub(super) fn outermost_good(page: &PageDom, inside: &[bool], good: &[f64]) -> f64 {
    let mut sum = 0.0;
    for (i, e) in page.elements.iter().enumerate() {
        if inside[i] && !(e.parent != NO_ELEM && inside[e.parent as usize]) {
            sum += good[i];
        }
    }
    sum
}

/// Whether each element holds (strictly contains) an element of `inside` (bottom-up).
pub(super) fn holds_any(page: &PageDom, inside: &[bool]) -> Vec<bool> {
    let n = page.elements.len();
    let mut holds = vec![false; n];
    for i in (0..n).rev() {
        let p = page.elements[i].parent;
        if p != NO_ELEM && (holds[i] || inside[i]) {
            holds[p as usize] = true;
        }
    }
    holds
}

/// Add every element's value to its parent's, children before parents.
pub(super) fn sum_up(page: &PageDom, values: &mut [f64]) {
    for i in (0..values.len()).rev() {
        let p = page.elements[i].parent;
        if p != NO_ELEM {
            values[p as usize] += values[i];
        }
    }
}
