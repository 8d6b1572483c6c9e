//! A Wayland client's connection to the compositor `$WAYLAND_DISPLAY` names, for the protocols the bot speaks itself
//! (a wlroots virtual pointer, KWin's fake input): its globals, bound on a queue whose events the bot needs none of.

use anyhow::{anyhow, Result};
use wayland_client::globals::{registry_queue_init, GlobalList, GlobalListContents};
use wayland_client::protocol::wl_registry::WlRegistry;
use wayland_client::{Connection, Dispatch, EventQueue, QueueHandle};

/// The queue's state: nothing the bot asks for sends events it needs (each protocol's module says which of its
/// objects it ignores, with `delegate_noop!`).
pub struct Quiet;

impl Dispatch<WlRegistry, GlobalListContents> for Quiet {
    fn event(
        _: &mut Self,
        _: &WlRegistry,
        _: wayland_client::protocol::wl_registry::Event,
        _: &GlobalListContents,
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
    }
}

/// Joins the compositor: its globals, and the queue to bind them on.
pub fn join() -> Result<(GlobalList, EventQueue<Quiet>)> {
    let connection = Connection::connect_to_env().map_err(|e| anyhow!("cannot join the Wayland compositor: {e}"))?;
    registry_queue_init::<Quiet>(&connection).map_err(|e| anyhow!("cannot list the Wayland compositor's globals: {e}"))
}

/// Whether the compositor offers the global `interface` (a protocol, by its name).
pub fn compositor_offers(interface: &str) -> Result<bool> {
    let (globals, _queue) = join()?;
    Ok(globals.contents().with_list(|list| list.iter().any(|global| global.interface == interface)))
}

/// Sends what is queued and waits until the compositor has handled it (`what` names it in an error).
pub fn roundtrip(queue: &mut EventQueue<Quiet>, what: &str) -> Result<()> {
    queue.roundtrip(&mut Quiet).map(|_| ()).map_err(|e| anyhow!("{what} (the compositor): {e}"))
}
