#!/usr/bin/env python3
"""A randomly permuted copy of a file of 9x9 Sudoku puzzles: the same puzzles seen another way.

Each puzzle (a line of 81 characters, '.' or '0' for an empty cell; lines starting with '#' and blank lines are
copied as they are) gets its own random symmetry: its digits relabelled, its bands permuted and the rows within
each band, its stacks and the columns within each stack, and a transposition half the time. A symmetry of the
grid maps solutions to solutions, so each copy has exactly as many solutions as its puzzle, and a solver's work
on the set should not change; a solver tuned to one orientation shows it.

Usage: python3 scripts/bench/permute-sudoku.py SEED < PUZZLES > PERMUTED
"""

import random
import sys


def line_order(rng):
    """Rows (or columns) 0..8 in a new order: the three bands shuffled, and the three rows within each."""
    bands = [0, 1, 2]
    rng.shuffle(bands)
    order = []
    for band in bands:
        inner = [0, 1, 2]
        rng.shuffle(inner)
        order.extend(3 * band + i for i in inner)
    return order


def permuted(puzzle, rng):
    rows, cols = line_order(rng), line_order(rng)
    digits = list("123456789")
    rng.shuffle(digits)
    relabel = {str(d + 1): digits[d] for d in range(9)}
    transpose = rng.random() < 0.5
    out = []
    for r in range(9):
        for c in range(9):
            rr, cc = (c, r) if transpose else (r, c)
            cell = puzzle[rows[rr] * 9 + cols[cc]]
            out.append(relabel.get(cell, "."))
    return "".join(out)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    rng = random.Random(int(sys.argv[1]))
    for line in sys.stdin:
        text = line.rstrip("\n")
        puzzle = text[:81]
        if text.startswith("#") or not text.strip():
            print(text)
        elif len(puzzle) == 81 and all(ch in ".0123456789" for ch in puzzle):
            print(permuted(puzzle, rng) + text[81:])
        else:
            sys.exit(f"not a 9x9 puzzle line: {text[:90]!r}")


if __name__ == "__main__":
    main()
