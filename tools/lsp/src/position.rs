//! Byte offsets ↔ editor positions. The protocol counts columns in UTF-16 code units unless
//! the client agrees to UTF-8 bytes; the host and the checks count bytes.

use lsp_types::Position;

/// How the client counts columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-8 bytes (when the client offers it).
    Utf8,
    /// UTF-16 code units (the protocol's default).
    Utf16,
}

/// The starts of a text's lines, to turn offsets into positions and back.
pub struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
    encoding: Encoding,
}

impl<'a> LineIndex<'a> {
    /// The index of a text.
    pub fn new(text: &'a str, encoding: Encoding) -> LineIndex<'a> {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        LineIndex {
            text,
            starts,
            encoding,
        }
    }

    /// The position of a byte offset (clamped to the text, moved back to a character start).
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let before = &self.text[self.starts[line]..offset];
        let character = match self.encoding {
            Encoding::Utf8 => before.len(),
            Encoding::Utf16 => before.encode_utf16().count(),
        };
        Position::new(to_u32(line), to_u32(character))
    }

    /// The byte offset of a position; a column past the line's end is its end, a line past the
    /// text's end is the text's end.
    pub fn offset(&self, position: Position) -> usize {
        let Some(&start) = self.starts.get(position.line as usize) else {
            return self.text.len();
        };
        let end = self
            .starts
            .get(position.line as usize + 1)
            .map_or(self.text.len(), |&next| next - 1);
        let line = &self.text[start..end];
        let wanted = position.character as usize;
        let mut units = 0;
        for (i, c) in line.char_indices() {
            if units >= wanted {
                return start + i;
            }
            units += match self.encoding {
                Encoding::Utf8 => c.len_utf8(),
                Encoding::Utf16 => c.len_utf16(),
            };
        }
        end
    }
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_utf16_units_or_bytes() {
        let text = "a = \"é𝄞x\"\nb";
        let x = text.find('x').unwrap();
        let utf16 = LineIndex::new(text, Encoding::Utf16);
        assert_eq!(utf16.position(x), Position::new(0, 8));
        assert_eq!(utf16.offset(Position::new(0, 8)), x);
        let utf8 = LineIndex::new(text, Encoding::Utf8);
        assert_eq!(utf8.position(x), Position::new(0, x as u32));
        assert_eq!(utf8.offset(Position::new(0, x as u32)), x);
        let b = text.len() - 1;
        assert_eq!(utf16.position(b), Position::new(1, 0));
        assert_eq!(utf16.offset(Position::new(0, 99)), text.find('\n').unwrap());
        assert_eq!(utf16.offset(Position::new(9, 0)), text.len());
    }
}
