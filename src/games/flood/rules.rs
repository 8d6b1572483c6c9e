//! Flood-It's rules on a board's cells: a move recolours the flood (the region connected to the start cell: the
//! top-left one unless a board says otherwise, as clients that flood from the centre do) and so absorbs the
//! neighbouring regions of the new colour; the game is won when the board is one colour.

/// Apply one move in place (the game's rule). Used by the play loop to predict the next board.
///
/// Picking the flood's own colour changes nothing.
///
/// # Panics
/// When `cells.len() != width * height`.
pub fn apply_move(width: usize, height: usize, cells: &mut [u8], colour: u8) {
    apply_move_from(width, height, cells, 0, colour)
}

/// [`apply_move`] for a flood that grows from cell `start` (a row-major index).
///
/// # Panics
/// When `cells.len() != width * height`, or `start` is not a cell of a non-empty board.
pub fn apply_move_from(width: usize, height: usize, cells: &mut [u8], start: usize, colour: u8) {
    assert!(
        cells.len() == width * height,
        "apply_move: cells.len() = {} but width*height = {}",
        cells.len(),
        width * height
    );
    if cells.is_empty() {
        return;
    }
    let old = cells[start];
    if old == colour {
        return;
    }
    // Recolour the flood; neighbours of the new colour join it automatically because they
    // now have the flood's colour and touch it.
    let mut stack = vec![start];
    cells[start] = colour;
    while let Some(i) = stack.pop() {
        let (x, y) = (i % width, i / width);
        let mut visit = |j: usize, stack: &mut Vec<usize>| {
            if cells[j] == old {
                cells[j] = colour;
                stack.push(j);
            }
        };
        if x > 0 {
            visit(i - 1, &mut stack);
        }
        if x + 1 < width {
            visit(i + 1, &mut stack);
        }
        if y > 0 {
            visit(i - width, &mut stack);
        }
        if y + 1 < height {
            visit(i + width, &mut stack);
        }
    }
}

/// true when every cell has the same colour.
pub fn is_solved(cells: &[u8]) -> bool {
    match cells.first() {
        None => true,
        Some(&first) => cells.iter().all(|&c| c == first),
    }
}

/// Check a move list solves the board (applies them in order; every move must be a colour present on the board at that point and differ from the flood colour). Returns Err(description) if not.
///
/// # Panics
/// When `cells.len() != width * height`.
pub fn check_solution(width: usize, height: usize, cells: &[u8], moves: &[u8]) -> Result<(), String> {
    check_solution_from(width, height, cells, 0, moves)
}

/// [`check_solution`] for a flood that grows from cell `start`.
pub fn check_solution_from(width: usize, height: usize, cells: &[u8], start: usize, moves: &[u8]) -> Result<(), String> {
    assert!(
        cells.len() == width * height,
        "check_solution: cells.len() = {} but width*height = {}",
        cells.len(),
        width * height
    );
    let mut board = cells.to_vec();
    for (i, &colour) in moves.iter().enumerate() {
        if is_solved(&board) {
            return Err(format!(
                "move {i} (colour {colour}) played after the board was already solved"
            ));
        }
        if board[start] == colour {
            return Err(format!(
                "move {i} picks colour {colour}, which is the flood's current colour"
            ));
        }
        if !board.contains(&colour) {
            return Err(format!(
                "move {i} picks colour {colour}, which is not on the board"
            ));
        }
        apply_move_from(width, height, &mut board, start, colour);
    }
    if is_solved(&board) {
        Ok(())
    } else {
        Err(format!(
            "after {} moves the board is not one colour",
            moves.len()
        ))
    }
}
