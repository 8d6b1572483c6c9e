//! The terminal game: a person plays one side, the program the other,
//! perfectly.
//!
//! Input, one move per line:
//! * as the dandelions, a cell: `c3` (column letter `a`–`e` from the left,
//!   row number from the top) or `3,2` (row, column, counted from 1);
//! * as the wind, a direction: `N`, `NE`, `E`, `SE`, `S`, `SW`, `W`, `NW`
//!   (any case; `north-east` works too). North is up.
//!
//! `help` repeats this, `quit` ends the game. A line that is not a legal
//! move is rejected with the reason and the prompt is repeated. The end of
//! the input ends the game quietly.

use std::io::{BufRead, Write};

use super::board::{dirs_of, Cell, CellContent, Dir, Move, Position};
use super::solver::{SolveOptions, Solver};
use super::Side;

/// The board with column letters and row numbers, the directions left and
/// whose turn it is.
pub fn render(pos: &Position) -> String {
    let n = pos.size();
    let mut s = String::from("   ");
    for c in 0..n {
        s.push(' ');
        s.push((b'a' + c as u8) as char);
    }
    s.push('\n');
    for r in 0..n {
        s.push_str(&format!("{:>2} ", r + 1));
        for c in 0..n {
            s.push(' ');
            s.push(match pos.content(Cell::new(r, c)) {
                CellContent::Flower => '*',
                CellContent::Seed => '~',
                CellContent::Empty => '.',
            });
        }
        s.push('\n');
    }
    let left: Vec<&str> = dirs_of(pos.winds_left()).iter().map(|d| d.name()).collect();
    let used: Vec<&str> = dirs_of(!pos.winds_left()).iter().map(|d| d.name()).collect();
    s.push_str(&format!(
        "wind left: {}   used: {}\n",
        if left.is_empty() { "none".to_string() } else { left.join(" ") },
        if used.is_empty() { "none".to_string() } else { used.join(" ") },
    ));
    let empty = (0..n * n).filter(|&i| pos.seeds() & (1 << i) == 0).count();
    s.push_str(&format!(
        "flowers {}/{}, winds {}/{}, empty cells {}",
        pos.flowers_placed(),
        pos.turns(),
        pos.winds_used(),
        pos.turns(),
        empty
    ));
    s
}

/// Reads the person's move for `side` from a line.
fn parse_move(line: &str, side: Side, n: usize) -> Result<Move, String> {
    let t = line.trim();
    match side {
        Side::Dandelions => Cell::parse(t, n).map(Move::Place).ok_or_else(|| {
            if Dir::parse(t).is_some() {
                format!("{t:?} is a wind direction, but you play the dandelions: name a cell like c3 or 3,2")
            } else {
                let last = (b'a' + n as u8 - 1) as char;
                format!("{t:?} is not a cell: use a column letter a-{last} and a row 1-{n} (like c3), or row,column (like 3,2)")
            }
        }),
        Side::Wind => Dir::parse(t).map(Move::Blow).ok_or_else(|| {
            format!("{t:?} is not a direction: use N, NE, E, SE, S, SW, W or NW")
        }),
    }
}

fn help(person: Side) -> String {
    match person {
        Side::Dandelions => "You place the flowers: type a cell like c3 (column letter, row number from the top) or 3,2 (row, column). Each flower seeds its own cell; the wind carries seeds from every flower to the edge. Cover every cell to win.".to_string(),
        Side::Wind => "You are the wind: type a direction N, NE, E, SE, S, SW, W or NW (north is up), each at most once. Seeds fly from every flower to the edge in that direction. Leave one cell empty to win.".to_string(),
    }
}

/// `autoplay play dandelions --as wind|dandelions`: the program plays
/// `program_side` perfectly (a winning move whenever it has one, from the
/// solver) and the person the other side, typing moves on `input` (see
/// the module docs). Shows the board after every move and announces the
/// result. Stops cleanly with `Ok` at the end of the input or on `quit`.
pub fn play_command<R: BufRead, W: Write>(program_side: Side, input: R, mut output: W) -> anyhow::Result<()> {
    let person = program_side.other();
    let mut pos = Position::start();
    let mut solver = Solver::new(pos.size(), pos.turns(), &SolveOptions::default());
    let mut lines = input.lines();
    writeln!(
        output,
        "Dandelions, {0}x{0}, {1} turns each. You play {2}; the program plays {3}.",
        pos.size(),
        pos.turns(),
        person.name(),
        program_side.name()
    )?;
    writeln!(output, "{}", help(person))?;
    writeln!(output, "Type `help` for help, `quit` to stop.")?;
    writeln!(output)?;
    writeln!(output, "{}", render(&pos))?;
    loop {
        let Some(mover) = pos.to_move() else {
            let winner = pos.result().expect("game over");
            writeln!(output)?;
            if winner == Side::Dandelions {
                writeln!(output, "Every cell is covered: the dandelions win.")?;
            } else {
                let empty: Vec<String> = (0..pos.size() * pos.size())
                    .filter(|&i| pos.seeds() & (1 << i) == 0)
                    .map(|i| Cell::from_index(i, pos.size()).to_string())
                    .collect();
                writeln!(output, "Cells left empty: {}. The wind wins.", empty.join(" "))?;
            }
            let verdict = if winner == person { "You win!" } else { "The program wins." };
            writeln!(output, "{verdict}")?;
            output.flush()?;
            return Ok(());
        };
        let mv = if mover == program_side {
            let (mv, winner) = solver.best_move(&pos);
            let mv = mv.expect("a move exists before the end");
            let note = if winner == program_side { " (a winning move)" } else { "" };
            match mv {
                Move::Place(c) => writeln!(output, "The dandelions place a flower on {c}{note}.")?,
                Move::Blow(d) => writeln!(output, "The wind blows {d}{note}.")?,
            }
            mv
        } else {
            loop {
                let what = match person {
                    Side::Dandelions => "place a flower (e.g. c3 or 3,2)".to_string(),
                    Side::Wind => {
                        let left: Vec<&str> = dirs_of(pos.winds_left()).iter().map(|d| d.name()).collect();
                        format!("blow ({})", left.join(" "))
                    }
                };
                write!(output, "Your move, {what}: ")?;
                output.flush()?;
                let Some(line) = lines.next() else {
                    writeln!(output)?;
                    writeln!(output, "End of input: game stopped.")?;
                    output.flush()?;
                    return Ok(());
                };
                let line = line?;
                let t = line.trim();
                if t.is_empty() {
                    continue;
                }
                match t.to_ascii_lowercase().as_str() {
                    "help" | "?" | "h" => {
                        writeln!(output, "{}", help(person))?;
                        continue;
                    }
                    "quit" | "exit" | "q" => {
                        writeln!(output, "Game stopped.")?;
                        output.flush()?;
                        return Ok(());
                    }
                    _ => {}
                }
                match parse_move(t, person, pos.size())
                    .and_then(|mv| pos.play(mv).map(|_| mv).map_err(|e| e.to_string()))
                {
                    Ok(mv) => {
                        match mv {
                            Move::Place(c) => writeln!(output, "You place a flower on {c}.")?,
                            Move::Blow(d) => writeln!(output, "You blow {d}.")?,
                        }
                        break mv;
                    }
                    Err(msg) => writeln!(output, "Rejected: {msg}. Try again.")?,
                }
            }
        };
        pos = pos.play(mv)?;
        writeln!(output)?;
        writeln!(output, "{}", render(&pos))?;
    }
}
