//! Finds the lattice of cells a board is drawn on: one entry ([`find`]), one result ([`Lattice`]), one error
//! ([`LatticeError`]), whatever shows the cells. What shows them is the caller's cue ([`Cue`]), each a per-pixel
//! view of the picture the caller made:
//!
//! - [`Cue::FlatColours`]: cells filled with flat colours (Flood-It), the pixels classified by colour
//!   ([`flat_colours`]); the board is the largest patch of board colours and its lattice the coarsest that every
//!   change of colour lies on.
//! - [`Cue::Lines`]: lines drawn between the cells (a Sudoku's grid), a mask of line pixels ([`lines`]); thicker
//!   lines show boxes.
//! - [`Cue::CharacterBoxes`]: only the boxes drawn, with a terminal's line characters ([`character_boxes`]).
//! - [`Cue::Edges`]: the cells' own edges, with no line between them (tiles), from the picture's luminance
//!   ([`edges`]).
//!
//! Every finder reports the lattice the same way: its N+1 boundaries each way as [`Line`]s, its cells as a
//! [`CellLayout`] for clicking, and the boxes its lines group the cells into where the cue shows boxes. Every
//! failure is a [`LatticeError`] whose [`Failure`] says how far the finder got, so that a reader chooses its
//! fallback by what was found, never by an error's words.

pub mod character_boxes;
pub mod edges;
pub mod flat_colours;
pub mod lines;

use thiserror::Error;

use crate::game::CellLayout;
pub use flat_colours::{sample_cells, CellSample, ClassMap, ColourCache};
pub use lines::usual_boxes;

/// One boundary of a lattice: the pixels its line covers across, inclusive (one pixel where no line is drawn).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    pub start: usize,
    pub end: usize,
}

impl Line {
    pub fn width(&self) -> usize {
        self.end - self.start + 1
    }
    pub fn centre(&self) -> f64 {
        (self.start + self.end) as f64 / 2.0
    }
}

/// How a square lattice's cells group into boxes (a Sudoku's): cells per box, down and across.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Boxes {
    pub rows: usize,
    pub cols: usize,
    /// true when thicker (or drawn) lines showed the boxes; false when they are the usual ones for the side
    /// ([`usual_boxes`]).
    pub drawn: bool,
}

/// A lattice of cells found in a picture.
#[derive(Clone, Debug, PartialEq)]
pub struct Lattice {
    /// The cells, for clicking at their centres.
    pub layout: CellLayout,
    /// The `cols + 1` boundaries between columns (x ranges), left to right, and the `rows + 1` between rows (y
    /// ranges), top to bottom.
    pub verticals: Vec<Line>,
    pub horizontals: Vec<Line>,
    /// The boxes, for a cue that shows them ([`Cue::Lines`], [`Cue::CharacterBoxes`], [`Cue::Edges`]); `None` for
    /// [`Cue::FlatColours`].
    pub boxes: Option<Boxes>,
}

impl Lattice {
    /// Cells per side of a square lattice (columns).
    pub fn size(&self) -> usize {
        self.layout.cols
    }

    /// The boxes of a lattice found from a cue that shows them; (1, side) boxes otherwise.
    pub fn boxes(&self) -> Boxes {
        self.boxes.unwrap_or(Boxes { rows: 1, cols: self.layout.cols, drawn: false })
    }

    /// The pixels strictly between a cell's four boundaries: (x0, y0, x1, y1), inclusive.
    pub fn interior(&self, row: usize, col: usize) -> (usize, usize, usize, usize) {
        (
            self.verticals[col].end + 1,
            self.horizontals[row].end + 1,
            self.verticals[col + 1].start - 1,
            self.horizontals[row + 1].start - 1,
        )
    }
}

/// What shows a picture's cells: a per-pixel view of the picture, row-major, as wide and high as the picture.
pub enum Cue<'a> {
    /// Pixels classified by colour (0: no board colour). `hint`: the layout of an earlier reading of the same
    /// board, which settles the grid size when the picture alone cannot.
    FlatColours { map: &'a ClassMap, min_cell: u32, hint: Option<&'a CellLayout> },
    /// Line pixels between cells (dark lines on a light board, or light on a dark one).
    Lines { mask: &'a [bool], min_cell: usize },
    /// Pixels of a terminal's line characters (`+---+`, `|`) drawing boxes of cells.
    CharacterBoxes { mask: &'a [bool], min_cell: usize },
    /// The picture's luminance: cells told by their edges; `sizes` are the cells per side looked for.
    Edges { light: &'a [u8], sizes: &'a [usize], min_cell: f64 },
}

/// Finds the lattice in a `width`×`height` picture from what `cue` shows of it.
pub fn find(width: usize, height: usize, cue: Cue) -> Result<Lattice, LatticeError> {
    match cue {
        Cue::FlatColours { map, min_cell, hint } => flat_colours::find(map, min_cell, hint),
        Cue::Lines { mask, min_cell } => lines::find(width, height, mask, min_cell),
        Cue::CharacterBoxes { mask, min_cell } => {
            character_boxes::find(width, height, mask, min_cell).ok_or(LatticeError::NoCharacterBoxes)
        }
        Cue::Edges { light, sizes, min_cell } => edges::find(light, width, height, sizes, min_cell),
    }
}

/// How far a finder got before it failed, in the order it gets there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Failure {
    /// Nothing the cue looks for is in the picture.
    NothingShown,
    /// Something is, but no patch of it is large or square enough to be a board.
    NoPatch,
    /// A board-sized patch of one colour everywhere: no lattice can be seen in it.
    Uniform,
    /// A board-sized patch, but no lattice explains it.
    NotALattice,
    /// A lattice, running into the picture's edge.
    CutOff,
    /// A lattice, but not the one an earlier reading saw.
    OtherLattice,
    /// A lattice whose cells do not read.
    Cells,
}

/// Why no lattice was found (or its cells could not be read).
#[derive(Debug, Error, PartialEq)]
pub enum LatticeError {
    #[error("no board found: no pixel of the image has a board colour")]
    NoBoardPixels,
    #[error("no grid found: the picture has no dark pixels")]
    NoDarkPixels,
    #[error("no board found: the largest patch of board colours is only {width}×{height} pixels (cells are at least {min_cell} pixels)")]
    TooSmall { width: usize, height: usize, min_cell: u32 },
    #[error("no grid found: no patch of dark pixels is at least {min_side}×{min_side} pixels and about square")]
    NoCandidate { min_side: usize },
    #[error("the board runs into the edge of the picture at ({x}, {y}); it may be cut off (capture the whole window)")]
    CutOff { x: usize, y: usize },
    #[error("the grid runs into the edge of the picture at ({x}, {y}); it may be cut off (capture the whole window)")]
    GridCutOff { x: usize, y: usize },
    #[error("the board is one colour everywhere, so its grid size cannot be seen (give the grid size)")]
    Uniform,
    #[error("no grid of square cells explains the {width}×{height}-pixel patch of board colours at ({x}, {y}); it is not a board")]
    NoLattice { x: usize, y: usize, width: usize, height: usize },
    #[error(
        "no grid found: the largest square patch of dark pixels, {width}×{height} at ({x}, {y}), is not a grid: {why}"
    )]
    NotAGrid { x: usize, y: usize, width: usize, height: usize, why: String },
    #[error("no boxes drawn with a terminal's characters")]
    NoCharacterBoxes,
    #[error("{0}")]
    NoEdges(String),
    #[error("the board does not fit the expected grid of {cols}×{rows} cells")]
    NotExpectedGrid { cols: usize, rows: usize },
    #[error("the {cols}×{rows} board is now only {width}×{height} pixels, so its cells are about {pitch:.1} pixels wide, under the {min_cell} needed to read them; make the window larger")]
    CellsTooSmall { cols: usize, rows: usize, width: usize, height: usize, pitch: f64, min_cell: u32 },
    #[error("cell (row {row}, column {col}) at pixel ({x}, {y}) has colour {rgb}, which is not in the palette")]
    UnknownColour { row: usize, col: usize, x: u32, y: u32, rgb: String },
    #[error("cell (row {row}, column {col}) is {rgb} with a mark at its centre, and the palette has no marked {rgb}")]
    UnexpectedMark { row: usize, col: usize, rgb: String },
    #[error("cell (row {row}, column {col}) at pixel ({x}, {y}) is not one flat colour; it is not a board cell")]
    MixedCell { row: usize, col: usize, x: u32, y: u32 },
}

impl LatticeError {
    /// How far the finder got.
    pub fn failure(&self) -> Failure {
        use LatticeError::*;
        match self {
            NoBoardPixels | NoDarkPixels => Failure::NothingShown,
            TooSmall { .. } | NoCandidate { .. } => Failure::NoPatch,
            Uniform => Failure::Uniform,
            NoLattice { .. } | NotAGrid { .. } | NoCharacterBoxes | NoEdges(_) => Failure::NotALattice,
            CutOff { .. } | GridCutOff { .. } => Failure::CutOff,
            NotExpectedGrid { .. } | CellsTooSmall { .. } => Failure::OtherLattice,
            UnknownColour { .. } | UnexpectedMark { .. } | MixedCell { .. } => Failure::Cells,
        }
    }

    /// Whether no lattice was seen at all (as against one seen that runs into the picture's edge, is another
    /// than expected, or whose cells do not read).
    pub fn found_none(&self) -> bool {
        self.failure() <= Failure::NotALattice
    }
}
