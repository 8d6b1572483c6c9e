//! Each screen game's front end, one folder per game (Tatham's front end apart from the back end): how the game's
//! windows look and take input — the reader and its calibration themes, the actions, the ways a client takes a
//! move — behind [`crate::game::Screen`] (loaded once from the calibration) and [`crate::game::Client`] (one
//! window, owned by the play loop, holding what that window has shown). The rules they play by are in
//! [`crate::games`], which knows nothing of pictures.

pub mod cribbage;
pub mod flood;
pub mod sudoku;
