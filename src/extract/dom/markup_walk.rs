//! Recording inline markup during the DOM walk (`markup.rs` holds what is recorded):
//! spans opened and closed around inline elements, images, the raw text of `<pre>`, and
//! at each block's end the spans handed to the block (or carried into the next one).

use super::build::Builder;
use super::markup::{MarkupBuilder, Span, SpanKind, OPEN};
use super::BlockKind;

impl Builder {
    fn recorder(&mut self) -> Option<&mut MarkupBuilder> {
        self.markup.as_deref_mut()
    }

    /// Where the next pushed character lands in the block's text.
    fn next_offset(&self) -> u32 {
        (self.text.len() + usize::from(self.space_pending)) as u32
    }

    /// Open an inline span at the current position; returns whether one was opened.
    pub(super) fn open_span(&mut self, kind: SpanKind) -> bool {
        let start = self.next_offset();
        let Some(m) = self.recorder() else {
            return false;
        };
        m.open.push(m.current.len());
        m.current.push(Span {
            start,
            end: OPEN,
            kind,
        });
        true
    }

    /// Close the innermost open span at the current position.
    pub(super) fn close_span(&mut self) {
        let end = self.text.len() as u32;
        if let Some(m) = self.recorder() {
            if let Some(i) = m.open.pop() {
                m.current[i].end = end;
            }
        }
    }

    /// An image at the current position.
    pub(super) fn image(&mut self, src: &str, alt: &str) {
        let at = self.next_offset();
        if let Some(m) = self.recorder() {
            m.current.push(Span {
                start: at,
                end: at,
                kind: SpanKind::Image {
                    src: src.into(),
                    alt: super::collapse(alt).into(),
                },
            });
        }
    }

    /// Text inside `<pre>` as the page has it (the block's text collapses its spaces).
    pub(super) fn push_raw(&mut self, s: &str) {
        if let Some(m) = self.recorder() {
            m.raw.push_str(s);
        }
    }

    /// The block being built was written (`written`: it is the page's last block) or
    /// dropped for having no text: close its spans at its end, keep them, and carry the
    /// spans still open into the next block.
    pub(super) fn flush_markup(&mut self, written: bool) {
        let current_elem = self.current;
        let Some(m) = self.markup.as_deref_mut() else {
            return;
        };
        let raw = std::mem::take(&mut m.raw);
        let carried: Vec<SpanKind> = m.open.iter().map(|&i| m.current[i].kind.clone()).collect();
        let mut spans = std::mem::take(&mut m.current);
        match self.page.blocks.last().filter(|_| written) {
            Some(b) => {
                let index = (self.page.blocks.len() - 1) as u32;
                let len = b.text.len() as u32;
                m.out.starts.push(m.out.spans.len() as u32);
                // Images of a textless block just before, in an element still open
                // around this one (`exit_markup` drops those of closed elements).
                let orphans = std::mem::take(&mut m.orphans);
                m.out.spans.extend(orphans.into_iter().map(|(_, s)| Span {
                    start: 0,
                    end: 0,
                    ..s
                }));
                for mut s in spans.drain(..) {
                    s.end = s.end.min(len);
                    s.start = s.start.min(s.end);
                    m.out.spans.push(s);
                }
                if b.kind == BlockKind::Preformatted && !raw.trim().is_empty() {
                    m.out.pre.push((index, trim_blank_lines(&raw)));
                }
            }
            None => {
                m.orphans.extend(
                    spans
                        .drain(..)
                        .filter(|s| matches!(s.kind, SpanKind::Image { .. }))
                        .map(|s| (current_elem, s)),
                );
            }
        }
        m.open.clear();
        for kind in carried {
            m.open.push(m.current.len());
            m.current.push(Span {
                start: 0,
                end: OPEN,
                kind,
            });
        }
    }
}

impl Builder {
    /// Block element `id` ends: the images of its textless blocks go with it.
    pub(super) fn exit_markup(&mut self, id: super::ElemId) {
        if let Some(m) = self.recorder() {
            m.orphans.retain(|(e, _)| *e < id);
        }
    }
}

/// `<pre>` text without its leading and trailing blank lines and trailing spaces.
fn trim_blank_lines(raw: &str) -> String {
    let lines: Vec<&str> = raw.lines().map(str::trim_end).collect();
    let first = lines.iter().position(|l| !l.is_empty()).unwrap_or(0);
    let last = lines
        .iter()
        .rposition(|l| !l.is_empty())
        .map_or(0, |l| l + 1);
    lines[first..last.max(first)].join("\n")
}
