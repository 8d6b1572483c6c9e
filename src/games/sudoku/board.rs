//! The Sudoku grid: sizes and box shapes, the accepted text forms, the sgt-solo game ID,
//! the clash finder and an independent solution checker.
//!
//! # Sizes and box shapes
//!
//! An N×N grid is tiled by boxes of R rows × C columns with N = R·C, N ≤ 16. Without an
//! explicit shape the box is inferred from N as the factorisation closest to a square with
//! R ≤ C: 4 → 2x2, 6 → 2x3 (boxes 2 rows tall, 3 columns wide), 8 → 2x4, 9 → 3x3,
//! 10 → 2x5, 12 → 3x4, 14 → 2x7, 15 → 3x5, 16 → 4x4. Other sizes need an explicit shape.
//!
//! # Text forms ([`Grid::parse`])
//!
//! * N lines of N symbols: `1`–`9` then `A`–`G` (lower case accepted), `.` or `0` for an
//!   empty cell. Spaces, tabs, `|`, `-` and `+` are separators and are ignored, so
//!   pretty-printed grids with box rules read fine; lines left empty by that are skipped,
//!   as are lines starting with `#` or `//`.
//! * One line of N² symbols (the 81-character form of puzzle collections).
//! * An sgt-solo game ID `RxC:<desc>` (see [`Grid::parse_sgt_id`]).
//!
//! [`Display`](std::fmt::Display) writes N lines of N symbols; [`Grid::to_line`] the one-line form.

use std::fmt;

use thiserror::Error;

/// Largest supported side: the symbols run `1`–`9` then `A`–`G`.
pub const MAX_SIZE: usize = 16;

/// Everything that can be wrong with a grid text or a grid.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SudokuError {
    #[error("empty input: no grid found")]
    Empty,
    #[error("line {line}, column {column}: unexpected character {ch:?} (expected 1-9, A-G, '.' or '0')")]
    BadChar { line: usize, column: usize, ch: char },
    #[error("line {line}, column {column}: symbol {ch:?} is too large for a {size}x{size} grid")]
    OutOfRange { line: usize, column: usize, ch: char, size: usize },
    #[error("line {line} has {found} cells, expected {expected}")]
    RowLength { line: usize, found: usize, expected: usize },
    #[error("the grid has {rows} rows of {columns} cells: a grid needs as many rows as columns")]
    NotSquare { rows: usize, columns: usize },
    #[error("a one-line grid needs 16, 36, 64, 81, 100, 144, 196, 225 or 256 symbols; found {0}")]
    LineLength(usize),
    #[error("unsupported grid size {0}x{0}: sides run from 1 to 16")]
    UnsupportedSize(usize),
    #[error("no box shape is inferred for a {0}x{0} grid: give one explicitly (e.g. --box 1x{0})")]
    NoBoxShape(usize),
    #[error("box {rows}x{cols} does not tile a {size}x{size} grid ({rows}*{cols} != {size})")]
    BadBox { rows: usize, cols: usize, size: usize },
    #[error("bad box shape {0:?}: expected RxC, e.g. 3x3 or 2x3")]
    BadBoxText(String),
    #[error("sgt-solo game ID: {0}")]
    SgtId(String),
    #[error("cell value {value} at row {row}, column {column} is out of range for a {size}x{size} grid")]
    BadValue { row: usize, column: usize, value: u8, size: usize },
    #[error("{0}")]
    Clash(Clash),
    #[error("no solution: the givens do not clash, but the grid cannot be completed")]
    Unsolvable,
}

/// The box shape `(R, C)` (R rows, C columns) inferred for a side N, as listed in the
/// module docs: the factorisation N = R·C with 2 ≤ R ≤ C and R largest (1 → 1x1). `None`
/// for prime sides and sides above 16.
pub fn default_box_shape(size: usize) -> Option<(usize, usize)> {
    if !(1..=MAX_SIZE).contains(&size) {
        return None;
    }
    if size == 1 {
        return Some((1, 1));
    }
    // Largest R <= sqrt(N) dividing N; R = 1 only for primes, which get no default.
    let mut best = None;
    for r in 2..=size {
        if r * r > size {
            break;
        }
        if size.is_multiple_of(r) {
            best = Some((r, size / r));
        }
    }
    best
}

/// Parses a box shape written `RxC` (also `R×C` or `R*C`).
pub fn parse_box_shape(text: &str) -> Result<(usize, usize), SudokuError> {
    let bad = || SudokuError::BadBoxText(text.to_string());
    let t = text.trim();
    let (r, c) = t.split_once(['x', 'X', '×', '*']).ok_or_else(bad)?;
    let r: usize = r.trim().parse().map_err(|_| bad())?;
    let c: usize = c.trim().parse().map_err(|_| bad())?;
    if r == 0 || c == 0 || r * c > MAX_SIZE {
        return Err(SudokuError::BadBox { rows: r, cols: c, size: r * c });
    }
    Ok((r, c))
}

/// The symbol for a value: 0 → `.`, 1–9 → digits, 10–16 → `A`–`G`.
pub fn symbol(value: u8) -> char {
    match value {
        0 => '.',
        1..=9 => (b'0' + value) as char,
        _ => (b'A' + value - 10) as char,
    }
}

/// The value of a symbol (`.`/`0` → 0), or `None` for a character that is no symbol.
pub fn symbol_value(ch: char) -> Option<u8> {
    match ch {
        '.' | '0' => Some(0),
        '1'..='9' => Some(ch as u8 - b'0'),
        'A'..='G' => Some(ch as u8 - b'A' + 10),
        'a'..='g' => Some(ch as u8 - b'a' + 10),
        _ => None,
    }
}

fn is_separator(ch: char) -> bool {
    matches!(ch, ' ' | '\t' | '|' | '-' | '+' | '\r')
}

/// A square grid of side N = R·C with boxes of R rows × C columns. Cells are stored row by
/// row; 0 is an empty cell, 1..=N a digit. Values are checked on construction; clashes
/// between givens are not (see [`Grid::clashes`]).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Grid {
    box_rows: usize,
    box_cols: usize,
    cells: Vec<u8>,
}

/// Where two equal digits share a house.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum House {
    /// Row index (0-based).
    Row(usize),
    /// Column index (0-based).
    Column(usize),
    /// Box index (0-based, row-major over the boxes).
    Box(usize),
}

/// Two givens with the same digit in one house. Positions are 0-based `(row, column)`;
/// the message counts from 1: "row 3 has two 7s (columns 2 and 8)".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clash {
    pub house: House,
    pub value: u8,
    pub first: (usize, usize),
    pub second: (usize, usize),
}

impl fmt::Display for Clash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = symbol(self.value);
        let (a, b) = (self.first, self.second);
        match self.house {
            House::Row(r) => write!(f, "row {} has two {s}s (columns {} and {})", r + 1, a.1 + 1, b.1 + 1),
            House::Column(c) => write!(f, "column {} has two {s}s (rows {} and {})", c + 1, a.0 + 1, b.0 + 1),
            House::Box(k) => write!(
                f,
                "box {} has two {s}s (row {} column {} and row {} column {})",
                k + 1,
                a.0 + 1,
                a.1 + 1,
                b.0 + 1,
                b.1 + 1
            ),
        }
    }
}

impl Grid {
    /// An empty grid with boxes of `box_rows` × `box_cols`.
    pub fn empty(box_rows: usize, box_cols: usize) -> Result<Grid, SudokuError> {
        let n = box_rows * box_cols;
        Grid::from_cells(box_rows, box_cols, vec![0; n * n])
    }

    /// A grid from its cells (row-major, 0 = empty); checks the length and the values.
    pub fn from_cells(box_rows: usize, box_cols: usize, cells: Vec<u8>) -> Result<Grid, SudokuError> {
        let n = box_rows * box_cols;
        if box_rows == 0 || box_cols == 0 || n > MAX_SIZE {
            return Err(SudokuError::BadBox { rows: box_rows, cols: box_cols, size: n });
        }
        if cells.len() != n * n {
            return Err(SudokuError::LineLength(cells.len()));
        }
        if let Some(i) = cells.iter().position(|&v| v as usize > n) {
            return Err(SudokuError::BadValue { row: i / n + 1, column: i % n + 1, value: cells[i], size: n });
        }
        Ok(Grid { box_rows, box_cols, cells })
    }

    /// Side N.
    pub fn size(&self) -> usize {
        self.box_rows * self.box_cols
    }

    /// Box shape `(rows, columns)`.
    pub fn box_shape(&self) -> (usize, usize) {
        (self.box_rows, self.box_cols)
    }

    /// The cells, row-major, 0 = empty.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The value at `(row, column)` (0-based), 0 if empty.
    pub fn get(&self, row: usize, column: usize) -> u8 {
        self.cells[row * self.size() + column]
    }

    /// Sets `(row, column)` (0-based) to `value` (0 clears). Panics on a value above N.
    pub fn set(&mut self, row: usize, column: usize, value: u8) {
        assert!(value as usize <= self.size(), "value {value} out of range");
        let n = self.size();
        self.cells[row * n + column] = value;
    }

    /// Number of filled cells.
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// True when no cell is empty.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// Box index (row-major over boxes) of a cell.
    pub fn box_of(&self, row: usize, column: usize) -> usize {
        let boxes_per_row = self.size() / self.box_cols;
        (row / self.box_rows) * boxes_per_row + column / self.box_cols
    }

    /// Parses any accepted text form (module docs): a game ID, one line of N² symbols or N
    /// lines of N symbols. `box_shape` overrides the inferred shape (and must tile N).
    pub fn parse(text: &str, box_shape: Option<(usize, usize)>) -> Result<Grid, SudokuError> {
        let trimmed = text.trim();
        if looks_like_sgt_id(trimmed) {
            let grid = Grid::parse_sgt_id(trimmed)?;
            if let Some(shape) = box_shape {
                if shape != grid.box_shape() {
                    return Err(SudokuError::SgtId(format!(
                        "the ID says {}x{} boxes but {}x{} was asked for",
                        grid.box_rows, grid.box_cols, shape.0, shape.1
                    )));
                }
            }
            return Ok(grid);
        }
        // (original line number, symbols with their original column)
        let mut rows: Vec<(usize, Vec<(usize, char)>)> = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let t = line.trim_start();
            if t.starts_with('#') || t.starts_with("//") {
                continue;
            }
            let symbols: Vec<(usize, char)> =
                line.chars().enumerate().filter(|&(_, ch)| !is_separator(ch)).map(|(c, ch)| (c + 1, ch)).collect();
            if !symbols.is_empty() {
                rows.push((i + 1, symbols));
            }
        }
        if rows.is_empty() {
            return Err(SudokuError::Empty);
        }
        // Validate characters first so a stray letter is named where it stands.
        for (line, symbols) in &rows {
            for &(column, ch) in symbols {
                if symbol_value(ch).is_none() {
                    return Err(SudokuError::BadChar { line: *line, column, ch });
                }
            }
        }
        let (n, one_line) = if rows.len() == 1 && rows[0].1.len() > 1 {
            let len = rows[0].1.len();
            let n = (1..=MAX_SIZE).find(|n| n * n == len).ok_or(SudokuError::LineLength(len))?;
            (n, true)
        } else {
            (rows[0].1.len(), false)
        };
        if n > MAX_SIZE {
            return Err(SudokuError::UnsupportedSize(n));
        }
        if !one_line {
            for (line, symbols) in &rows {
                if symbols.len() != n {
                    return Err(SudokuError::RowLength { line: *line, found: symbols.len(), expected: n });
                }
            }
            if rows.len() != n {
                return Err(SudokuError::NotSquare { rows: rows.len(), columns: n });
            }
        }
        let (br, bc) = match box_shape {
            Some((r, c)) if r * c == n && r > 0 => (r, c),
            Some((r, c)) => return Err(SudokuError::BadBox { rows: r, cols: c, size: n }),
            None => default_box_shape(n).ok_or(SudokuError::NoBoxShape(n))?,
        };
        let mut cells = Vec::with_capacity(n * n);
        for (line, symbols) in &rows {
            for &(column, ch) in symbols {
                let v = symbol_value(ch).expect("checked above");
                if v as usize > n {
                    return Err(SudokuError::OutOfRange { line: *line, column, ch, size: n });
                }
                cells.push(v);
            }
        }
        Grid::from_cells(br, bc, cells)
    }

    /// Parses an sgt-solo game ID `RxC:<desc>`. The parameters `RxC` give the box shape:
    /// sgt-solo's "2x3" is a 6×6 grid whose boxes are 2 rows × 3 columns, "3x3" the usual
    /// 9×9 (a bare `3` means 3x3). Difficulty and symmetry letters after the shape are
    /// ignored; jigsaw (`j`), killer (`k`) and X (`x` after the shape) variants are refused.
    /// The description is row-major: a decimal number is a given, a lower-case letter is a
    /// run of empty cells (`a` = 1 … `z` = 26), and `_` separates two adjacent givens.
    pub fn parse_sgt_id(id: &str) -> Result<Grid, SudokuError> {
        let err = |m: String| SudokuError::SgtId(m);
        let id = id.trim();
        let (params, desc) =
            id.split_once(':').ok_or_else(|| err("no ':' between parameters and description".into()))?;
        let p = params.as_bytes();
        let mut i = 0;
        let number = |i: &mut usize| -> Option<usize> {
            let start = *i;
            while *i < p.len() && p[*i].is_ascii_digit() {
                *i += 1;
            }
            params[start..*i].parse().ok()
        };
        let r = number(&mut i).ok_or_else(|| err(format!("parameters {params:?} do not start with a box size")))?;
        let c = if i < p.len() && p[i] == b'x' {
            i += 1;
            number(&mut i).ok_or_else(|| err(format!("bad box size in {params:?}")))?
        } else {
            r
        };
        for &ch in &p[i..] {
            match ch {
                b'j' => return Err(err("jigsaw puzzles are not supported".into())),
                b'k' => return Err(err("killer puzzles are not supported".into())),
                b'x' => return Err(err("X (diagonal) puzzles are not supported".into())),
                _ => {}
            }
        }
        let n = r * c;
        if r == 0 || c == 0 || n > MAX_SIZE {
            return Err(err(format!("unsupported box size {r}x{c}")));
        }
        let mut cells = Vec::with_capacity(n * n);
        let d = desc.as_bytes();
        let mut j = 0;
        let mut last_was_given = false;
        while j < d.len() {
            let ch = d[j];
            match ch {
                b'a'..=b'z' => {
                    cells.extend(std::iter::repeat_n(0u8, (ch - b'a' + 1) as usize));
                    j += 1;
                    last_was_given = false;
                }
                b'_' => {
                    if !last_was_given {
                        return Err(err(format!("'_' at position {} does not follow a given", j + 1)));
                    }
                    j += 1;
                    last_was_given = false;
                }
                b'0'..=b'9' => {
                    if last_was_given {
                        return Err(err(format!("two givens without '_' at position {}", j + 1)));
                    }
                    let start = j;
                    while j < d.len() && d[j].is_ascii_digit() {
                        j += 1;
                    }
                    let v: usize = desc[start..j].parse().map_err(|_| err("bad number".into()))?;
                    if v == 0 || v > n {
                        return Err(err(format!("given {v} at position {} is out of range 1-{n}", start + 1)));
                    }
                    cells.push(v as u8);
                    last_was_given = true;
                }
                _ => {
                    return Err(err(format!("unexpected character {:?} at position {}", ch as char, j + 1)));
                }
            }
            if cells.len() > n * n {
                return Err(err(format!("description covers more than the {} cells of a {n}x{n} grid", n * n)));
            }
        }
        if cells.len() != n * n {
            return Err(err(format!("description covers {} cells, expected {}", cells.len(), n * n)));
        }
        Grid::from_cells(r, c, cells)
    }

    /// The sgt-solo game ID of this grid (`RxC:<desc>`), the inverse of [`Grid::parse_sgt_id`].
    pub fn to_sgt_id(&self) -> String {
        let mut out = format!("{}x{}:", self.box_rows, self.box_cols);
        let mut run = 0u8;
        let mut last_given = false;
        for &v in &self.cells {
            if v == 0 {
                if run == 26 {
                    out.push('z');
                    run = 0;
                }
                run += 1;
                last_given = false;
            } else {
                if run > 0 {
                    out.push((b'a' + run - 1) as char);
                    run = 0;
                } else if last_given {
                    out.push('_');
                }
                out.push_str(&v.to_string());
                last_given = true;
            }
        }
        if run > 0 {
            out.push((b'a' + run - 1) as char);
        }
        out
    }

    /// The one-line form: N² symbols, `.` for empty cells.
    pub fn to_line(&self) -> String {
        self.cells.iter().map(|&v| symbol(v)).collect()
    }

    /// Every pair of equal givens sharing a row, column or box (the first pair per house and
    /// digit), rows first, then columns, then boxes.
    pub fn clashes(&self) -> Vec<Clash> {
        let n = self.size();
        let mut out = Vec::new();
        let mut scan = |house: House, cells: &mut dyn Iterator<Item = (usize, usize)>| {
            let mut seen: [Option<(usize, usize)>; MAX_SIZE + 1] = [None; MAX_SIZE + 1];
            let mut reported = [false; MAX_SIZE + 1];
            for (r, c) in cells {
                let v = self.cells[r * n + c] as usize;
                if v == 0 {
                    continue;
                }
                match seen[v] {
                    None => seen[v] = Some((r, c)),
                    Some(first) if !reported[v] => {
                        reported[v] = true;
                        out.push(Clash { house, value: v as u8, first, second: (r, c) });
                    }
                    Some(_) => {}
                }
            }
        };
        for r in 0..n {
            scan(House::Row(r), &mut (0..n).map(|c| (r, c)));
        }
        for c in 0..n {
            scan(House::Column(c), &mut (0..n).map(|r| (r, c)));
        }
        let (br, bc) = (self.box_rows, self.box_cols);
        for k in 0..n {
            let (r0, c0) = ((k / (n / bc)) * br, (k % (n / bc)) * bc);
            scan(House::Box(k), &mut (0..n).map(|i| (r0 + i / bc, c0 + i % bc)));
        }
        out
    }

    /// `Err` naming the first clash, if any.
    pub fn check_clashes(&self) -> Result<(), SudokuError> {
        match self.clashes().first() {
            Some(&clash) => Err(SudokuError::Clash(clash)),
            None => Ok(()),
        }
    }
}

fn looks_like_sgt_id(text: &str) -> bool {
    let Some((params, _)) = text.split_once(':') else { return false };
    params.starts_with(|c: char| c.is_ascii_digit()) && params.chars().all(|c| c.is_ascii_alphanumeric() || c == '#')
}

impl fmt::Display for Grid {
    /// N lines of N symbols, no trailing newline.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.size();
        for (r, row) in self.cells.chunks(n).enumerate() {
            if r > 0 {
                writeln!(f)?;
            }
            for &v in row {
                write!(f, "{}", symbol(v))?;
            }
        }
        Ok(())
    }
}

impl std::str::FromStr for Grid {
    type Err = SudokuError;
    fn from_str(s: &str) -> Result<Grid, SudokuError> {
        Grid::parse(s, None)
    }
}

/// Checks a solution against its puzzle, plainly: same shape, every cell filled, the givens
/// kept, and every row, column and box a permutation of 1..=N. The message names the first
/// problem found.
pub fn check_solution(puzzle: &Grid, solution: &Grid) -> Result<(), String> {
    if puzzle.box_shape() != solution.box_shape() {
        return Err(format!(
            "shape differs: puzzle {}x{} boxes, solution {}x{}",
            puzzle.box_rows, puzzle.box_cols, solution.box_rows, solution.box_cols
        ));
    }
    let n = puzzle.size();
    for r in 0..n {
        for c in 0..n {
            let (p, s) = (puzzle.get(r, c), solution.get(r, c));
            if s == 0 {
                return Err(format!("row {} column {} is empty", r + 1, c + 1));
            }
            if p != 0 && p != s {
                return Err(format!("row {} column {}: given {} changed to {}", r + 1, c + 1, symbol(p), symbol(s)));
            }
        }
    }
    let (br, bc) = puzzle.box_shape();
    let is_permutation = |values: Vec<u8>| {
        let mut seen = vec![false; n + 1];
        for v in values {
            if seen[v as usize] {
                return false;
            }
            seen[v as usize] = true;
        }
        true
    };
    for r in 0..n {
        if !is_permutation((0..n).map(|c| solution.get(r, c)).collect()) {
            return Err(format!("row {} repeats a digit", r + 1));
        }
    }
    for c in 0..n {
        if !is_permutation((0..n).map(|r| solution.get(r, c)).collect()) {
            return Err(format!("column {} repeats a digit", c + 1));
        }
    }
    for k in 0..n {
        let (r0, c0) = ((k / br) * br, (k % br) * bc);
        if !is_permutation((0..n).map(|i| solution.get(r0 + i / bc, c0 + i % bc)).collect()) {
            return Err(format!("box {} repeats a digit", k + 1));
        }
    }
    Ok(())
}
