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
pub fn check_solution_from(
    width: usize,
    height: usize,
    cells: &[u8],
    start: usize,
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
            return Err(format!("move {i} (colour {colour}) played after the board was already solved"));
        }
        if board[start] == colour {
            return Err(format!("move {i} picks colour {colour}, which is the flood's current colour"));
        }
        if !board.contains(&colour) {
            return Err(format!("move {i} picks colour {colour}, which is not on the board"));
        }
        apply_move_from(width, height, &mut board, start, colour);
    }
    if is_solved(&board) {
        Ok(())
    } else {
        Err(format!("after {} moves the board is not one colour", moves.len()))
    }
}

/// The flood's start as one move shows it: when `after` is `before` with exactly one region (a connected patch
/// of one colour) recoloured to `colour`, the cell of that region nearest the board's centre (the top-left of the
/// middle cells where several are equally near), else `None`.
///
/// A client's flood is the region that a move recolours, so a board whose flood grows from somewhere else than
/// the board text said is found from the first move that changes it. Any cell of the region serves as the start
/// from then on (the region stays inside the flood for the rest of the game); the one nearest the centre names
/// the usual other choice.
///
/// # Panics
/// When `before` or `after` is not `width * height` cells long.
pub fn start_shown_by_move(width: usize, height: usize, before: &[u8], colour: u8, after: &[u8]) -> Option<usize> {
    assert!(before.len() == width * height && after.len() == before.len(), "start_shown_by_move: wrong board lengths");
    let changed: Vec<usize> = (0..before.len()).filter(|&i| before[i] != after[i]).collect();
    let &first = changed.first()?;
    if changed.iter().any(|&i| after[i] != colour) {
        return None;
    }
    let mut region = vec![false; before.len()];
    let old = before[first];
    let mut stack = vec![first];
    region[first] = true;
    let mut size = 1;
    while let Some(i) = stack.pop() {
        let (x, y) = (i % width, i / width);
        let neighbours = [
            (x > 0).then(|| i - 1),
            (x + 1 < width).then(|| i + 1),
            (y > 0).then(|| i - width),
            (y + 1 < height).then(|| i + width),
        ];
        for j in neighbours.into_iter().flatten() {
            if !region[j] && before[j] == old {
                region[j] = true;
                size += 1;
                stack.push(j);
            }
        }
    }
    if size != changed.len() || changed.iter().any(|&i| !region[i]) {
        return None;
    }
    // Doubled coordinates keep the centre of an even side exact.
    let off_centre = |i: usize| {
        let (x, y) = ((i % width) as i64, (i / width) as i64);
        (2 * x - (width as i64 - 1)).pow(2) + (2 * y - (height as i64 - 1)).pow(2)
    };
    changed.into_iter().min_by_key(|&i| (off_centre(i), i))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::flood::board::random_board;

    /// Every start on random boards: the start a move shows is a cell of the region the move recoloured, and
    /// flooding from it gives the same board for the rest of any game.
    #[test]
    fn a_move_shows_the_region_it_grew_from() {
        for seed in 0..200u64 {
            let (width, height) = (3 + seed as usize % 6, 2 + seed as usize % 5);
            let before = random_board(width, height, 4, seed);
            let start = (seed as usize * 7919) % before.len();
            let colour = (before[start] + 1 + (seed % 3) as u8) % 4;
            let mut after = before.clone();
            apply_move_from(width, height, &mut after, start, colour);
            let shown = start_shown_by_move(width, height, &before, colour, &after).expect("one region changed");
            let (mut a, mut b) = (after.clone(), after.clone());
            for next in [1u8, 3, 0, 2, 1, 3] {
                apply_move_from(width, height, &mut a, start, next);
                apply_move_from(width, height, &mut b, shown, next);
                assert_eq!(a, b, "seed {seed}: start {start}, shown {shown}");
            }
        }
    }

    #[test]
    fn the_cell_nearest_the_centre_names_the_region() {
        // A 4×4 board whose middle four are one region with the left column: the top-left of the middle four.
        let before = b"ABBB\nAAAB\nAAAB\nBBBB".iter().copied().filter(|&c| c != b'\n').collect::<Vec<_>>();
        let after: Vec<u8> = before.iter().map(|&c| if c == b'A' { b'C' } else { c }).collect();
        assert_eq!(start_shown_by_move(4, 4, &before, b'C', &after), Some(5));
        // The corner alone changed: the corner.
        let before = b"ABCBCACAB".to_vec();
        let mut after = before.clone();
        after[0] = b'B';
        assert_eq!(start_shown_by_move(3, 3, &before, b'B', &after), Some(0));
    }

    #[test]
    fn a_change_no_move_makes_shows_no_start() {
        let before = b"AABBCC".to_vec();
        // Nothing changed.
        assert_eq!(start_shown_by_move(3, 2, &before, b'C', &before), None);
        // Part of a region changed.
        assert_eq!(start_shown_by_move(3, 2, &before, b'C', b"CABBCC"), None);
        // A region took another colour than the move's.
        assert_eq!(start_shown_by_move(3, 2, &before, b'C', b"BBBBCC"), None);
        // Two regions changed.
        assert_eq!(start_shown_by_move(3, 2, b"ABABAB", b'C', b"CBCBAB"), None);
    }
}
