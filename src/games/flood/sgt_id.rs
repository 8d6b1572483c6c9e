//! sgt-flood's game IDs (`WxH:<colour digits, row-major>,<move limit>`), the truth of what its window shows.

use anyhow::{bail, Context, Result};

/// A parsed sgt-flood game ID: the grid of colour numbers and the move limit.
#[derive(Clone, Debug, PartialEq)]
pub struct SgtFloodId {
    pub width: usize,
    pub height: usize,
    pub colours: Vec<u32>,
    pub move_limit: u32,
}

impl SgtFloodId {
    pub fn parse(id: &str) -> Result<Self> {
        let id = id.trim();
        let (size, rest) =
            id.split_once(':').with_context(|| format!("'{id}' is not an sgt-flood game ID (WxH:digits,limit)"))?;
        let (w, h) = size.split_once('x').with_context(|| format!("'{size}' is not a size WxH"))?;
        let (width, height): (usize, usize) = (w.parse()?, h.parse()?);
        let (digits, limit) = rest.split_once(',').with_context(|| format!("game ID '{id}' has no move limit"))?;
        let colours: Vec<u32> = digits
            .chars()
            .map(|c| c.to_digit(10).with_context(|| format!("'{c}' in game ID is not a colour digit")))
            .collect::<Result<_>>()?;
        if colours.len() != width * height {
            bail!("game ID has {} cells, but {width}x{height} needs {}", colours.len(), width * height);
        }
        Ok(SgtFloodId { width, height, colours, move_limit: limit.parse().context("bad move limit")? })
    }
}
