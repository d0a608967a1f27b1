//! Navigation on html5ever's tree (parent, previous element sibling, last element
//! child), for the guards that look around a hidden element (`panels.rs`,
//! `wrappers.rs`).

use markup5ever_rcdom::{Handle, NodeData};

use super::settings::MAX_SIBLINGS_SCANNED;

/// The parent of `node` (html5ever keeps it as a weak link in a `Cell`).
pub(super) fn parent_of(node: &Handle) -> Option<Handle> {
    let weak = node.parent.take();
    let parent = weak.as_ref().and_then(|w| w.upgrade());
    node.parent.set(weak);
    parent
}

/// The nearest element before `node` among its parent's children (none when the parent
/// has more than [`MAX_SIBLINGS_SCANNED`] children).
pub(super) fn prev_element_sibling(node: &Handle) -> Option<Handle> {
    let parent = parent_of(node)?;
    let children = parent.children.borrow();
    if children.len() > MAX_SIBLINGS_SCANNED {
        return None;
    }
    let at = children.iter().position(|c| std::rc::Rc::ptr_eq(c, node))?;
    children[..at]
        .iter()
        .rev()
        .find(|c| matches!(c.data, NodeData::Element { .. }))
        .cloned()
}

/// The last element among `node`'s children.
pub(super) fn last_element_child(node: &Handle) -> Option<Handle> {
    node.children
        .borrow()
        .iter()
        .rev()
        .find(|c| matches!(c.data, NodeData::Element { .. }))
        .cloned()
}
