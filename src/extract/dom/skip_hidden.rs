//! The one question the walk asks about hiding ([`Builder::is_skipped_as_hidden`]): what
//! `hidden.rs` reads as hidden, less the guards of `panels.rs` (tab and switchable
//! panels) and `wrappers.rs` (page and main-region wrappers hidden until scripts run).

use markup5ever_rcdom::Handle;

use super::build::Builder;
use super::hidden::{
    hidden_by_class, hidden_by_display_class, hidden_by_hide_class, is_hidden, is_hiding_token,
};
use super::panels::{is_switchable_panel, is_tab_panel};

impl Builder {
    /// Whether the walk skips `node` (with its subtree) as hidden: hidden by an
    /// attribute, an inline style, the `hide` class or a display utility class, unless a
    /// guard applies (a tab panel, a switchable panel, a wrapper holding most of the text);
    /// or small and hidden by a utility class.
    pub(super) fn is_skipped_as_hidden<'a>(
        &mut self,
        node: &Handle,
        attr: &impl Fn(&str) -> Option<&'a str>,
    ) -> bool {
        // One look at the class for a hiding token first (see [`is_hiding_token`]).
        let class = attr("class").filter(|c| c.split_ascii_whitespace().any(is_hiding_token));
        ((is_hidden(attr) || hidden_by_hide_class(class) || hidden_by_display_class(class))
            && !is_tab_panel(attr)
            && !is_switchable_panel(node)
            && !self.holds_most_text(node))
            || hidden_by_class(class, node)
    }
}
