//! Generic image analysis: finding a board of square cells in a picture, given a way to tell which pixels
//! may belong to the board. Nothing here knows any game's colours or pixel offsets.

pub mod annotate;
pub mod colour;
pub mod extremes;
pub mod font_glyphs;
pub mod glyph;
pub mod labelling;
pub mod lattice;
pub mod patches;
pub mod printed_char;
pub mod printed_number;
pub mod runs;
pub mod union_find;
