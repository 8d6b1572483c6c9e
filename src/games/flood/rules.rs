//! Flood-It's rules on a board's cells: a move recolours the flood (the region connected to the top-left
//! cell) and so absorbs the neighbouring regions of the new colour; the game is won when the board is one colour.

/// Apply one move in place (the game's rule). Used by the play loop to predict the next board.
///
/// Picking the flood's own colour changes nothing.
///
/// # Panics
/// When `cells.len() != width * height`.
pub fn apply_move(width: usize, height: usize, cells: &mut [u8], colour: u8) {
    assert!(
        cells.len() == width * height,
        "apply_move: cells.len() = {} but width*height = {}",
        cells.len(),
        width * height
    );
    if cells.is_empty() {
        return;
    }
    let old = cells[0];
    if old == colour {
        return;
    }
    // Recolour the flood; neighbours of the new colour join it automatically because they
    // now have the flood's colour and touch it.
    let mut stack = vec![0usize];
    cells[0] = colour;
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
pub fn check_solution(
    width: usize,
    height: usize,
    cells: &[u8],
    moves: &[u8],
) -> Result<(), String> {
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
        if board[0] == colour {
            return Err(format!(
                "move {i} picks colour {colour}, which is the flood's current colour"
            ));
        }
        if !board.contains(&colour) {
            return Err(format!(
                "move {i} picks colour {colour}, which is not on the board"
            ));
        }
        apply_move(width, height, &mut board, colour);
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
