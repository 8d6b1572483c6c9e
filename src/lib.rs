//! autoplay: a screen-reading autoplayer.
//!
//! The pipeline is a chain of small stages joined by plain data, each a module here and a subcommand of the
//! `autoplay` binary:
//!
//! ```text
//! capture (window, screen or image file) → read (pixels → board + cell layout)
//!   → solve (board → moves) → act (clicks and keys) → verify (capture again, compare with the expected board)
//! ```
//!
//! Every game implements [`game::Game`] once, in a folder of its own under [`games`] (its rules alone); a game
//! played in a window has its front end in [`clients`] ([`game::Screen`], [`game::Client`]); the capture, input
//! and play-loop code knows no game's rules and no client's look.

pub mod bench;
pub mod calibration;
pub mod capture;
pub mod cli;
pub mod clients;
pub mod desktop;
pub mod game;
pub mod games;
pub mod imageio;
pub mod input;
pub mod kwin;
pub mod mutter;
pub mod play;
pub mod session;
pub mod vision;
pub mod wayland;
pub mod wlroots;
pub mod x11_window;
