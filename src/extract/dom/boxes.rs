//! Where each element stands on a rendered page (`--render`): the stamp the browser
//! writes on every element (`render_browser/stamp.js`, attribute [`BOX_ATTR`]) is read
//! here into [`ElemBox`], kept beside the elements in [`PageDom::boxes`](super::PageDom)
//! and never elsewhere: the attribute does not count in the attribute budget
//! (`attr_limits.rs`) and no output writes attributes it does not know.

/// The attribute the browser stamps each element with: `x y width height font-size
/// visible`.
pub const BOX_ATTR: &str = "data-thresher-box";

/// An element's box on the rendered page, CSS pixels from the page's top left corner.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ElemBox {
    pub x: f32,
    pub y: f32,
    pub width: f32,
    pub height: f32,
    /// Computed font size, pixels.
    pub font_size: f32,
    /// Shown: not `display: none`, `visibility: hidden`, `opacity: 0` (itself or an
    /// ancestor), not clipped to a pixel, not placed outside the page.
    pub visible: bool,
}

impl ElemBox {
    /// Read a stamp; `None` when it is not one.
    pub fn parse(stamp: &str) -> Option<ElemBox> {
        let mut it = stamp.split_ascii_whitespace();
        let mut next = || it.next()?.parse::<f32>().ok().filter(|v| v.is_finite());
        let b = ElemBox {
            x: next()?,
            y: next()?,
            width: next()?,
            height: next()?,
            font_size: next()?,
            visible: next()? != 0.0,
        };
        Some(b)
    }

    /// Area in square pixels.
    pub fn area(&self) -> f32 {
        self.width.max(0.0) * self.height.max(0.0)
    }

    /// Horizontal centre, pixels.
    pub fn centre_x(&self) -> f32 {
        self.x + self.width / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_stamps() {
        let b = ElemBox::parse("10 20 300 40 16.5 1").unwrap();
        assert_eq!(
            (b.x, b.y, b.width, b.height, b.font_size),
            (10.0, 20.0, 300.0, 40.0, 16.5)
        );
        assert!(b.visible);
        assert!(!ElemBox::parse("0 0 0 0 16 0").unwrap().visible);
        assert_eq!(ElemBox::parse("1 2 3"), None);
        assert_eq!(ElemBox::parse("a b c d e f"), None);
    }

    #[test]
    fn boxes_go_to_the_side_table() {
        let html = format!(
            "<html><body {BOX_ATTR}='0 0 1366 900 16 1'><div {BOX_ATTR}='300 0 700 800 16 1'>\
             <p {BOX_ATTR}='300 100 700 50 18 1'>Shown text of the page.</p>\
             <p class=x {BOX_ATTR}='0 0 0 0 16 0'>Hidden by a stylesheet class.</p></div></body></html>"
        );
        let dom = super::super::parse(&html);
        let boxes = dom.boxes.as_ref().expect("boxes");
        assert_eq!(boxes.len(), dom.elements.len());
        let p = dom.elements.iter().position(|e| &*e.tag == "p").unwrap();
        assert_eq!(boxes[p].unwrap().font_size, 18.0);
        // The walk keeps what the browser hid (the heuristic decides, `visual_hidden`).
        assert!(dom.blocks.iter().any(|b| b.text.contains("Hidden")));
        // Nothing of the stamp reaches the element records.
        assert!(dom
            .elements
            .iter()
            .all(|e| !e.id_class.contains("thresher")));
    }

    #[test]
    fn unrendered_pages_have_no_boxes() {
        let dom = super::super::parse("<html><body><p>Text.</p></body></html>");
        assert!(dom.boxes.is_none());
    }
}
