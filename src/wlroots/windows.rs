//! The native windows a wlroots compositor's own IPC lists, with their places on the layout: sway's tree
//! ([`SwayTree`], over `$SWAYSOCK`) and Hyprland's clients ([`HyprlandClients`], over its instance's socket). Each
//! compositor names the same facts its own way; [`View`] is what the bot needs of them.

use std::io::{Read, Write};
use std::path::PathBuf;

use anyhow::{anyhow, bail, Context, Result};
use serde::Deserialize;
use swayipc::{Node, NodeType, ShellType};

/// A native window as the compositor lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// The compositor's id for it (sway's container id; the low 32 bits of Hyprland's address).
    pub id: u32,
    pub title: String,
    pub app: String,
    pub pid: Option<i32>,
    /// Where the window's own picture lies on the layout: x, y, width, height.
    pub rect: (i32, i32, i32, i32),
    /// Whether it is shown (not on another workspace, in a scratchpad, or hidden).
    pub shown: bool,
    pub focused: bool,
}

/// A compositor's IPC, as far as the bot uses it: its native windows, and focusing one.
pub trait WindowList {
    /// The native windows (not XWayland's, which the X11 path lists), front-most first where the compositor says.
    fn views(&mut self) -> Result<Vec<View>>;
    /// Gives `view` the input focus, as a user's key binding would.
    fn focus(&mut self, view: &View) -> Result<()>;
}

/// Whether sway's IPC socket is named in this session (`$SWAYSOCK`).
fn sway_session() -> bool {
    std::env::var_os("SWAYSOCK").is_some_and(|socket| !socket.is_empty())
}

/// Whether a Hyprland instance is named in this session (`$HYPRLAND_INSTANCE_SIGNATURE`).
fn hyprland_session() -> bool {
    std::env::var_os("HYPRLAND_INSTANCE_SIGNATURE").is_some_and(|signature| !signature.is_empty())
}

/// The window list of this session's compositor: sway's or Hyprland's; an error where it has none the bot knows.
pub fn window_list() -> Result<Box<dyn WindowList>> {
    if sway_session() {
        return Ok(Box::new(SwayTree(connect_sway()?)));
    }
    if hyprland_session() {
        return Ok(Box::new(HyprlandClients::of_session()?));
    }
    bail!("the compositor is neither sway nor Hyprland ($SWAYSOCK and $HYPRLAND_INSTANCE_SIGNATURE are unset), so it lists no windows to the bot")
}

pub(super) fn connect_sway() -> Result<swayipc::Connection> {
    // (Without $SWAYSOCK, swayipc runs `sway --get-socketpath`, which prints to the bot's terminal.)
    if !sway_session() {
        bail!("the compositor is not sway ($SWAYSOCK is not set), so it offers no IPC the bot knows");
    }
    swayipc::Connection::new().map_err(|e| anyhow!("cannot reach sway's IPC socket ($SWAYSOCK): {e}"))
}

/// sway's IPC tree.
pub struct SwayTree(pub(super) swayipc::Connection);

impl WindowList for SwayTree {
    /// The views that are native Wayland windows, as sway lists focus: tiled, then floating, each in tree order.
    /// A view's own picture is its node's `rect` moved by its `window_rect` (inside the borders and title bar).
    fn views(&mut self) -> Result<Vec<View>> {
        let tree = self.0.get_tree().map_err(|e| anyhow!("asking sway for its windows: {e}"))?;
        let mut nodes = Vec::new();
        native_nodes(&tree, &mut nodes);
        Ok(nodes.iter().map(view_of_node).collect())
    }

    fn focus(&mut self, view: &View) -> Result<()> {
        let command = format!("[con_id={}] focus", view.id);
        for outcome in self.0.run_command(&command).map_err(|e| anyhow!("asking sway to focus: {e}"))? {
            outcome.map_err(|e| anyhow!("sway would not focus window '{}': {e}", view.title))?;
        }
        Ok(())
    }
}

/// The views of `node` and below it that are native Wayland windows.
fn native_nodes(node: &Node, out: &mut Vec<Node>) {
    let is_view = matches!(node.node_type, NodeType::Con | NodeType::FloatingCon) && node.pid.is_some();
    if is_view && node.shell == Some(ShellType::XdgShell) {
        out.push(node.clone());
    }
    for child in node.nodes.iter().chain(&node.floating_nodes) {
        native_nodes(child, out);
    }
}

fn view_of_node(node: &Node) -> View {
    let (outer, inner) = (&node.rect, &node.window_rect);
    View {
        id: node.id as u32,
        title: node.name.clone().unwrap_or_default(),
        app: node.app_id.clone().unwrap_or_default(),
        pid: node.pid,
        rect: (outer.x + inner.x, outer.y + inner.y, inner.width, inner.height),
        shown: node.visible != Some(false),
        focused: node.focused,
    }
}

/// Hyprland's IPC: its request socket, `$XDG_RUNTIME_DIR/hypr/SIGNATURE/.socket.sock` (before Hyprland 0.40,
/// `/tmp/hypr/SIGNATURE/.socket.sock`), which answers one request a connection (`j/clients`: every client as JSON,
/// with its place `at` and `size` on the layout; `j/monitors`: each monitor's shown workspaces).
pub struct HyprlandClients {
    socket: PathBuf,
}

/// One client of `j/clients`, the fields the bot reads.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct HyprClient {
    address: String,
    mapped: bool,
    hidden: bool,
    at: [i32; 2],
    size: [i32; 2],
    workspace: HyprWorkspace,
    class: String,
    title: String,
    pid: i32,
    xwayland: bool,
    #[serde(rename = "focusHistoryID")]
    focus_history_id: i32,
}

#[derive(Deserialize)]
struct HyprWorkspace {
    id: i64,
}

/// One monitor of `j/monitors`: the workspaces it shows.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct HyprMonitor {
    active_workspace: HyprWorkspace,
    special_workspace: Option<HyprWorkspace>,
}

impl HyprlandClients {
    /// The IPC of the instance `$HYPRLAND_INSTANCE_SIGNATURE` names.
    pub fn of_session() -> Result<Self> {
        let signature =
            std::env::var("HYPRLAND_INSTANCE_SIGNATURE").context("$HYPRLAND_INSTANCE_SIGNATURE is unset")?;
        let runtime = std::env::var_os("XDG_RUNTIME_DIR").map(PathBuf::from);
        let candidates = runtime.iter().map(|r| r.join("hypr")).chain([PathBuf::from("/tmp/hypr")]);
        let sockets: Vec<PathBuf> = candidates.map(|dir| dir.join(&signature).join(".socket.sock")).collect();
        let socket = sockets.iter().find(|s| s.exists()).cloned().ok_or_else(|| {
            anyhow!("Hyprland's IPC socket is not where it should be (looked at {})", display(&sockets))
        })?;
        Ok(HyprlandClients { socket })
    }

    /// The IPC at `socket`.
    pub fn at(socket: PathBuf) -> Self {
        HyprlandClients { socket }
    }

    fn request(&self, request: &str) -> Result<String> {
        let mut stream = std::os::unix::net::UnixStream::connect(&self.socket)
            .map_err(|e| anyhow!("cannot reach Hyprland's IPC ({}): {e}", self.socket.display()))?;
        stream.write_all(request.as_bytes()).map_err(|e| anyhow!("asking Hyprland ({request}): {e}"))?;
        let mut reply = String::new();
        stream.read_to_string(&mut reply).map_err(|e| anyhow!("reading Hyprland's answer ({request}): {e}"))?;
        Ok(reply)
    }

    /// Every client Hyprland has (`j/clients`).
    fn clients(&self) -> Result<Vec<HyprClient>> {
        serde_json::from_str(&self.request("j/clients")?)
            .map_err(|e| anyhow!("Hyprland's list of windows is not what the bot reads: {e}"))
    }
}

fn display(paths: &[PathBuf]) -> String {
    paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
}

impl WindowList for HyprlandClients {
    /// The clients that are native Wayland windows and mapped, the focused first (by Hyprland's focus history).
    fn views(&mut self) -> Result<Vec<View>> {
        let clients = self.clients()?;
        let monitors: Vec<HyprMonitor> = serde_json::from_str(&self.request("j/monitors")?)
            .map_err(|e| anyhow!("Hyprland's list of monitors is not what the bot reads: {e}"))?;
        let shown_workspaces: Vec<i64> = monitors
            .iter()
            .flat_map(|m| [Some(m.active_workspace.id), m.special_workspace.as_ref().map(|w| w.id)])
            .flatten()
            .filter(|&id| id != 0)
            .collect();
        let mut native: Vec<&HyprClient> = clients.iter().filter(|c| c.mapped && !c.xwayland).collect();
        native.sort_by_key(|c| if c.focus_history_id < 0 { i32::MAX } else { c.focus_history_id });
        Ok(native
            .into_iter()
            .map(|c| View {
                id: address_id(&c.address),
                title: c.title.clone(),
                app: c.class.clone(),
                pid: (c.pid > 0).then_some(c.pid),
                rect: (c.at[0], c.at[1], c.size[0], c.size[1]),
                shown: !c.hidden && shown_workspaces.contains(&c.workspace.id),
                focused: c.focus_history_id == 0,
            })
            .collect())
    }

    fn focus(&mut self, view: &View) -> Result<()> {
        let clients = self.clients()?;
        let address = clients
            .iter()
            .find(|c| address_id(&c.address) == view.id)
            .map(|c| c.address.clone())
            .with_context(|| format!("window '{}' is gone: it was closed", view.title))?;
        let reply = self.request(&format!("dispatch focuswindow address:{address}"))?;
        if reply.trim() != "ok" {
            bail!("Hyprland would not focus window '{}': {}", view.title, reply.trim());
        }
        Ok(())
    }
}

/// The id the bot gives a Hyprland client: the low 32 bits of its address (`0x55e0c6e75980`), as the window ids
/// `autoplay windows` lists are 32-bit.
fn address_id(address: &str) -> u32 {
    u64::from_str_radix(address.trim_start_matches("0x"), 16).map_or(0, |a| a as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::net::UnixListener;

    /// Hyprland's answers as its IPC gives them (the fields of Hyprland 0.4x's `j/clients` and `j/monitors`): the
    /// bot's requests are answered from these by a socket standing in for the compositor, which is not in Debian 12.
    const CLIENTS: &str = r#"[
        {"address": "0x55e0c6e75980", "mapped": true, "hidden": false, "at": [22, 46], "size": [1556, 863],
         "workspace": {"id": 1, "name": "1"}, "floating": false, "pseudo": false, "monitor": 0, "class": "sgt-flood",
         "title": "Flood", "initialClass": "sgt-flood", "initialTitle": "Flood", "pid": 716768, "xwayland": false,
         "pinned": false, "fullscreen": 0, "fullscreenClient": 0, "grouped": [], "tags": [], "swallowing": "0x0",
         "focusHistoryID": 1},
        {"address": "0x55e0c6e557f0", "mapped": true, "hidden": false, "at": [5, 5], "size": [800, 600],
         "workspace": {"id": 2, "name": "2"}, "floating": false, "pseudo": false, "monitor": 0, "class": "kitty",
         "title": "shell", "initialClass": "kitty", "initialTitle": "kitty", "pid": 717410, "xwayland": false,
         "pinned": false, "fullscreen": 0, "fullscreenClient": 0, "grouped": [], "tags": [], "swallowing": "0x0",
         "focusHistoryID": 2},
        {"address": "0x55e0c6e11110", "mapped": true, "hidden": false, "at": [900, 46], "size": [300, 200],
         "workspace": {"id": 1, "name": "1"}, "floating": true, "pseudo": false, "monitor": 0, "class": "xterm",
         "title": "xterm", "initialClass": "xterm", "initialTitle": "xterm", "pid": 718000, "xwayland": true,
         "pinned": false, "fullscreen": 0, "fullscreenClient": 0, "grouped": [], "tags": [], "swallowing": "0x0",
         "focusHistoryID": 0}
    ]"#;
    const MONITORS: &str = r#"[{"id": 0, "name": "DP-1", "width": 1920, "height": 1080, "x": 0, "y": 0,
        "activeWorkspace": {"id": 1, "name": "1"}, "specialWorkspace": {"id": 0, "name": ""}, "scale": 1.0,
        "focused": true}]"#;

    /// A socket that answers each request as Hyprland would, and records the requests.
    fn hyprland_socket(dir: &std::path::Path) -> (PathBuf, std::sync::mpsc::Receiver<String>) {
        let path = dir.join(".socket.sock");
        let listener = UnixListener::bind(&path).unwrap();
        let (seen, requests) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { return };
                let mut buffer = [0u8; 1024];
                let n = stream.read(&mut buffer).unwrap_or(0);
                let request = String::from_utf8_lossy(&buffer[..n]).to_string();
                let reply = match request.as_str() {
                    "j/clients" => CLIENTS.to_string(),
                    "j/monitors" => MONITORS.to_string(),
                    r if r.starts_with("dispatch focuswindow address:0x55e0c6e75980") => "ok".to_string(),
                    _ => "unknown request".to_string(),
                };
                let _ = seen.send(request);
                let _ = stream.write_all(reply.as_bytes());
            }
        });
        (path, requests)
    }

    #[test]
    fn hyprlands_native_windows_are_listed_with_their_places_and_focused_by_address() {
        let dir = tempfile::tempdir().unwrap();
        let (socket, requests) = hyprland_socket(dir.path());
        let mut hyprland = HyprlandClients::at(socket);
        let views = hyprland.views().unwrap();
        // The XWayland client is left to the X11 path; the rest, the most recently focused first.
        assert_eq!(views.len(), 2, "{views:?}");
        let flood = &views[0];
        assert_eq!(
            (flood.id, flood.title.as_str(), flood.app.as_str(), flood.pid, flood.rect),
            (0xc6e75980, "Flood", "sgt-flood", Some(716768), (22, 46, 1556, 863))
        );
        assert!(flood.shown && !flood.focused, "{flood:?}");
        // On a workspace no monitor shows.
        assert!(!views[1].shown, "{:?}", views[1]);
        hyprland.focus(flood).unwrap();
        let asked: Vec<String> = requests.try_iter().collect();
        assert_eq!(asked.last().map(String::as_str), Some("dispatch focuswindow address:0x55e0c6e75980"), "{asked:?}");
        // A window that is gone is named so.
        let gone = View { id: 7, title: "Gone".into(), ..flood.clone() };
        assert!(hyprland.focus(&gone).unwrap_err().to_string().contains("'Gone' is gone"));
    }
}
