//! `matrix.html` in a real headless Chromium: the page's script builds the grid from the
//! embedded report, a mouse click on a cell opens the detail panel with both outcomes and the
//! diff, the status and area filters hide cells and rows, agreeing columns collapse, and the
//! page fetches nothing.
//!
//! Chromium is found through `CHROMIUM`, `/usr/bin/chromium` or `chromium` on `PATH`. When it
//! is missing and this runs as root with apt-get, Debian's `chromium` package is installed
//! (about a minute: 64 s here, 155 MB); otherwise the test fails saying what to install.

use crate::support;
use crate::support::report_fixture;

use std::io::{BufRead, BufReader, Write};
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use codemode_compat::report;
use report_fixture::{HOSTILE, NEW, OLD, TWIN};
use serde_json::{Value, json};

/// The Chromium binary, installed on first use when possible.
fn chromium() -> PathBuf {
    static FOUND: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    static INSTALLING: Mutex<()> = Mutex::new(());
    let _guard = INSTALLING.lock().unwrap_or_else(|e| e.into_inner());
    FOUND
        .get_or_init(|| {
            if let Some(path) = std::env::var_os("CHROMIUM").filter(|p| !p.is_empty()) {
                let path = PathBuf::from(path);
                return if path.is_file() {
                    Ok(path)
                } else {
                    Err(format!(
                        "CHROMIUM is set to {}, which is not a file: point it at a Chromium \
                         binary, or unset it to use Debian's chromium package",
                        path.display()
                    ))
                };
            }
            if let Some(found) = find_chromium() {
                return Ok(found);
            }
            install_chromium()?;
            find_chromium().ok_or_else(|| {
                "apt-get installed chromium, but no chromium binary is on PATH or at \
                 /usr/bin/chromium"
                    .to_string()
            })
        })
        .clone()
        .unwrap_or_else(|why| panic!("{why}"))
}

fn find_chromium() -> Option<PathBuf> {
    let standard = PathBuf::from("/usr/bin/chromium");
    if standard.is_file() {
        return Some(standard);
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("chromium"))
            .find(|p| p.is_file())
    })
}

fn install_chromium() -> Result<(), String> {
    const WHAT: &str = "the HTML report test needs Chromium: install Debian's `chromium` \
                        package (`apt-get install -y chromium`) or set CHROMIUM to a Chromium \
                        binary";
    // SAFETY: `geteuid` takes nothing, touches no memory of ours and cannot fail.
    let root = unsafe { libc::geteuid() } == 0;
    let apt = Path::new("/usr/bin/apt-get").is_file();
    if !root || !apt {
        return Err(format!(
            "{WHAT} (not installing it here: {})",
            if root {
                "there is no apt-get"
            } else {
                "this is not root"
            }
        ));
    }
    eprintln!("chromium is missing: installing Debian's chromium package with apt-get");
    let started = Instant::now();
    for args in [
        &["update", "-q"][..],
        &["install", "-y", "-q", "chromium"][..],
    ] {
        let status = Command::new("apt-get")
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .stdout(Stdio::null())
            .status()
            .map_err(|e| format!("{WHAT} (apt-get did not start: {e})"))?;
        if !status.success() {
            return Err(format!(
                "{WHAT} (`apt-get {}` failed: {status})",
                args.join(" ")
            ));
        }
    }
    eprintln!(
        "installed chromium in {:.0} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The flags every Chromium run here takes: headless, no sandbox (root), nothing phoning
/// home, a throwaway profile.
fn chromium_command(profile: &Path) -> Command {
    let mut command = Command::new(chromium());
    command.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1400,1000",
    ]);
    command.arg(format!("--user-data-dir={}", profile.display()));
    command
}

/// Writes the fixture's reports and returns the page's path.
fn write_page(name: &str) -> (PathBuf, PathBuf) {
    let dir = report_fixture::scratch(name);
    let matrix = report_fixture::matrix();
    let transitions = report_fixture::transitions(&matrix);
    let written = report::write_reports(&matrix, Some(&transitions), &dir.join("results")).unwrap();
    let page = written
        .into_iter()
        .find(|p| p.ends_with("matrix.html"))
        .expect("write_all writes matrix.html");
    (dir, page)
}

fn file_url(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// A Chromium driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`:
/// messages are JSON, NUL-terminated, on file descriptors 3 and 4).
struct Browser {
    child: Child,
    commands: std::io::PipeWriter,
    messages: Receiver<Value>,
    next_id: u64,
    session: Option<String>,
}

impl Browser {
    fn open(profile: &Path, url: &str) -> Browser {
        let (to_browser_read, to_browser_write) = std::io::pipe().unwrap();
        let (from_browser_read, from_browser_write) = std::io::pipe().unwrap();
        let (r, w) = (to_browser_read.as_raw_fd(), from_browser_write.as_raw_fd());
        let mut command = chromium_command(profile);
        command
            .arg("--remote-debugging-pipe")
            .arg(url)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // SAFETY: only async-signal-safe calls (fcntl, dup2) between fork and exec.
        unsafe {
            command.pre_exec(move || {
                // Move both out of the way first, so neither dup2 clobbers the other.
                let r2 = libc::fcntl(r, libc::F_DUPFD, 10);
                let w2 = libc::fcntl(w, libc::F_DUPFD, 10);
                if r2 < 0 || w2 < 0 || libc::dup2(r2, 3) < 0 || libc::dup2(w2, 4) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = command.spawn().expect("chromium starts");
        drop(to_browser_read);
        drop(from_browser_write);
        let (sender, messages) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(from_browser_read);
            loop {
                let mut message = Vec::new();
                match reader.read_until(0, &mut message) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        message.pop_if(|b| *b == 0);
                        if let Ok(value) = serde_json::from_slice::<Value>(&message)
                            && sender.send(value).is_err()
                        {
                            break;
                        }
                    }
                }
            }
        });
        let mut browser = Browser {
            child,
            commands: to_browser_write,
            messages,
            next_id: 0,
            session: None,
        };
        browser.attach(url);
        browser
    }

    /// Sends one command (to the page's session once attached) and waits for its answer.
    fn send(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({"id": id, "method": method, "params": params});
        if let Some(session) = &self.session {
            message["sessionId"] = json!(session);
        }
        let mut bytes = serde_json::to_vec(&message).unwrap();
        bytes.push(0);
        self.commands.write_all(&bytes).expect("chromium reads");
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.messages.recv_timeout(left) {
                Ok(answer) if answer["id"] == json!(id) => {
                    if let Some(error) = answer.get("error") {
                        panic!("{method} failed: {error}");
                    }
                    return answer["result"].clone();
                }
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => panic!("chromium did not answer {method}"),
                Err(RecvTimeoutError::Disconnected) => panic!("chromium exited during {method}"),
            }
        }
    }

    /// Attaches to the page showing `url`.
    fn attach(&mut self, url: &str) {
        let deadline = Instant::now() + Duration::from_secs(30);
        let target = loop {
            let targets = self.send("Target.getTargets", json!({}));
            let page = targets["targetInfos"].as_array().and_then(|all| {
                all.iter()
                    .find(|t| t["type"] == "page" && t["url"].as_str() == Some(url))
                    .map(|t| t["targetId"].clone())
            });
            if let Some(page) = page {
                break page;
            }
            assert!(Instant::now() < deadline, "chromium never opened {url}");
            std::thread::sleep(Duration::from_millis(100));
        };
        let attached = self.send(
            "Target.attachToTarget",
            json!({"targetId": target, "flatten": true}),
        );
        self.session = Some(attached["sessionId"].as_str().unwrap().to_owned());
    }

    /// Evaluates an expression in the page and returns its value.
    fn eval(&mut self, expression: &str) -> Value {
        let answer = self.send(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
        );
        if let Some(exception) = answer.get("exceptionDetails") {
            panic!("{expression} threw: {exception}");
        }
        answer["result"]["value"].clone()
    }

    /// Waits until an expression is true.
    fn wait_for(&mut self, expression: &str) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while self.eval(expression) != json!(true) {
            assert!(Instant::now() < deadline, "never true: {expression}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A real mouse click (press and release) in the middle of the element `selector` finds.
    fn click(&mut self, selector: &str) {
        let rect = self.eval(&format!(
            "(() => {{ const e = document.querySelector({sel}); if (!e) return null; \
             e.scrollIntoView({{block: 'center', inline: 'center'}}); \
             const r = e.getBoundingClientRect(); return {{x: r.x + r.width / 2, y: r.y + r.height / 2}}; }})()",
            sel = serde_json::to_string(selector).unwrap()
        ));
        assert!(!rect.is_null(), "nothing matches {selector}");
        for kind in ["mousePressed", "mouseReleased"] {
            self.send(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": rect["x"], "y": rect["y"], "button": "left", "clickCount": 1}),
            );
        }
    }
}

impl Drop for Browser {
    /// Closes the browser (all its processes), killing it if it does not exit in time.
    fn drop(&mut self) {
        let close = json!({"id": u64::MAX, "method": "Browser.close", "params": {}});
        let mut bytes = serde_json::to_vec(&close).unwrap();
        bytes.push(0);
        let _ = self.commands.write_all(&bytes);
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn cell(case: &str, column: &str) -> String {
    format!("#grid td.cell[data-case=\"{case}\"][data-column=\"{column}\"]")
}

#[test]
fn the_page_renders_its_grid_in_chromium_dump_dom() {
    let (dir, page) = write_page("dump");
    let output = chromium_command(&dir.join("profile"))
        .arg("--dump-dom")
        .arg(file_url(&page))
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .expect("chromium runs");
    assert!(
        output.status.success(),
        "chromium --dump-dom: {}",
        output.status
    );
    let dom = String::from_utf8_lossy(&output.stdout);
    // The script ran: the grid exists only once it has built it from the embedded report.
    let cells = dom.matches("<td class=\"cell status-").count();
    assert_eq!(cells, 16, "4 cases × 4 columns in the dumped DOM:\n{dom}");
    assert!(
        dom.contains("class=\"cell status-diff moved-upstream\""),
        "{dom}"
    );
    assert!(dom.contains("reference@0.2.2"));
    assert!(
        !dom.contains("<b id=\"injected\">"),
        "an outcome's text must never become markup"
    );

    // A link to a cell opens its panel once the script has run.
    let linked = chromium_command(&dir.join("profile"))
        .arg("--dump-dom")
        .arg(format!(
            "{}#cell=dispatch%2Fpositional-arguments|reference%400.2.2",
            file_url(&page)
        ))
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .expect("chromium runs");
    let dom = String::from_utf8_lossy(&linked.stdout);
    assert!(
        dom.contains("<aside id=\"detail\">"),
        "the panel is open:\n{dom}"
    );
    assert!(
        dom.contains("dispatch/positional-arguments on reference@0.2.2"),
        "{dom}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn clicking_a_cell_shows_both_outcomes_and_the_diff_and_filters_hide_cells() {
    let (dir, page) = write_page("drive");
    let url = file_url(&page);
    let mut browser = Browser::open(&dir.join("profile"), &url);
    browser.wait_for("document.readyState === 'complete' && document.querySelectorAll('#grid td.cell').length > 0");
    assert_eq!(
        browser.eval("document.querySelectorAll('#grid td.cell').length"),
        json!(16)
    );
    assert_eq!(
        browser.eval("document.getElementById('detail').hidden"),
        json!(true)
    );

    // A real click on the diff cell opens the panel: the column's outcome, ours, the diff.
    browser.click(&cell("dispatch/positional-arguments", OLD));
    browser.wait_for("!document.getElementById('detail').hidden");
    let detail = browser.eval(
        "({title: document.getElementById('detail-title').textContent,
           outcome: document.getElementById('detail-outcome').textContent,
           ours: document.getElementById('detail-ours').textContent,
           diff: document.getElementById('detail-diff').textContent,
           added: document.querySelectorAll('#detail-diff .add').length,
           removed: document.querySelectorAll('#detail-diff .del').length,
           reason: document.getElementById('detail-reason').textContent,
           selected: document.querySelectorAll('td.cell.selected').length})",
    );
    assert_eq!(
        detail["title"],
        json!(format!("dispatch/positional-arguments on {OLD}"))
    );
    let outcome: Value = serde_json::from_str(detail["outcome"].as_str().unwrap()).unwrap();
    let ours: Value = serde_json::from_str(detail["ours"].as_str().unwrap()).unwrap();
    assert_eq!(outcome["result"], json!([1]), "{detail}");
    assert_eq!(ours["result"], json!([1, "b"]), "{detail}");
    assert!(
        detail["diff"].as_str().unwrap().contains("+    \"b\""),
        "{detail}"
    );
    assert!(detail["added"].as_u64().unwrap() > 0 && detail["removed"].as_u64().unwrap() > 0);
    assert!(
        detail["reason"]
            .as_str()
            .unwrap()
            .contains("reference's outcome changed while ours did not"),
        "{detail}"
    );
    assert_eq!(detail["selected"], json!(1));
    assert_eq!(
        browser.eval("location.hash"),
        json!("#cell=dispatch%2Fpositional-arguments|reference%400.2.2")
    );

    // The hostile outcome shows as text in the panel and never as markup.
    browser.click(&cell("results/hostile", NEW));
    browser.wait_for(
        "document.getElementById('detail-title').textContent.startsWith('results/hostile')",
    );
    let shown = browser.eval("document.getElementById('detail-outcome').textContent");
    assert!(
        shown
            .as_str()
            .unwrap()
            .contains(&serde_json::to_string(HOSTILE).unwrap()[1..20]),
        "{shown}"
    );
    assert_eq!(
        browser.eval("document.getElementById('injected')"),
        Value::Null
    );

    // Unticking "pass" (a real click) hides every pass cell, leaves the others, and hides the
    // rows left with nothing to show.
    browser.click("#filter-pass");
    let after = browser.eval(
        "({passShown: document.querySelectorAll('td.cell.status-pass:not(.filtered)').length,
           passVisible: [...document.querySelectorAll('td.cell.status-pass')].filter(e => getComputedStyle(e).visibility === 'visible' && !e.closest('tr').hidden).length,
           diffShown: document.querySelectorAll('td.cell.status-diff:not(.filtered)').length,
           rowsShown: [...document.querySelectorAll('#grid tbody tr')].filter(r => !r.hidden).length})",
    );
    assert_eq!(after["passShown"], json!(0), "{after}");
    assert_eq!(after["passVisible"], json!(0), "{after}");
    assert_eq!(after["diffShown"], json!(1), "{after}");
    // Every case still has a non-pass cell (0.2.2 fails, errors or skips everywhere).
    assert_eq!(after["rowsShown"], json!(4), "{after}");
    browser.click("#filter-skip");
    browser.click("#filter-error");
    browser.click("#filter-expect");
    assert_eq!(
        browser.eval("[...document.querySelectorAll('#grid tbody tr')].filter(r => !r.hidden).map(r => r.dataset.case)"),
        json!(["dispatch/positional-arguments"])
    );
    for status in ["pass", "skip", "error", "expect"] {
        browser.click(&format!("#filter-{status}"));
    }
    assert_eq!(
        browser.eval("document.querySelectorAll('td.cell.filtered').length"),
        json!(0)
    );

    // The area filter keeps one catalogue file's rows.
    browser.eval(
        "(() => { const s = document.getElementById('filter-area'); s.value = 'results.yaml';
                  s.dispatchEvent(new Event('change')); })()",
    );
    assert_eq!(
        browser.eval("[...document.querySelectorAll('#grid tbody tr')].filter(r => !r.hidden).map(r => r.dataset.case).sort()"),
        json!(["results/hostile", "results/number"])
    );

    // Collapsing folds 0.5.2 into 0.5.6 (they agree on every cell), not 0.2.2.
    browser.click("#collapse");
    let headers =
        browser.eval("[...document.querySelectorAll('#grid thead th.column')].map(th => th.title)");
    assert_eq!(
        headers,
        json!(["ours", format!("{NEW}\n{TWIN}"), OLD]),
        "{headers}"
    );
    assert_eq!(
        browser.eval("document.querySelectorAll('#grid tbody tr:first-child td.cell').length"),
        json!(3)
    );

    // Nothing was fetched: the page is self-contained.
    assert_eq!(
        browser.eval("performance.getEntriesByType('resource').length"),
        json!(0)
    );
    drop(browser);
    let _ = std::fs::remove_dir_all(dir);
}

/// A catalogue whose one large case logs 3 MiB (48 lines of 64 KiB) and returns a short value.
const LARGE: &str = r#"
- id: large/log-flood
  code: "async () => { const big = 'x'.repeat(65536); for (let i = 0; i < 48; i++) console.log(i, big); return 48 }"
  expect:
    result: 48
    logs: {$any: true}
- id: large/small
  code: async () => 1
  expect:
    result: 1
"#;

/// The `matrix` command on ours and the remote column (its daemon served by the harness's own
/// executable) over a multi-megabyte outcome: the reports stay small, hold the outcome once,
/// elided with its markers, and the page shows the cell's detail with the elision note.
#[test]
fn a_multi_megabyte_outcome_is_elided_once_and_the_page_still_shows_it() {
    let dir = report_fixture::scratch("large");
    let cases = dir.join("cases");
    std::fs::create_dir_all(&cases).unwrap();
    std::fs::write(cases.join("large.yaml"), LARGE).unwrap();
    let out = dir.join("results");
    let run = Command::new(env!("CARGO_BIN_EXE_codemode-compat"))
        .arg("--root")
        .arg(support::root())
        .args(["matrix", "--columns", "ours,remote", "--cases"])
        .arg(&cases)
        .arg("--out")
        .arg(&out)
        .arg("--baseline")
        .arg(dir.join("baseline.json"))
        .env_remove("CODEMODE_EXECUTOR_BIN")
        .stdin(Stdio::null())
        .output()
        .expect("the harness runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(stdout.contains("2 cases × 2 columns: 4 pass"), "{stdout}");
    let size = |name: &str| std::fs::metadata(out.join(name)).unwrap().len();
    // The outcome is 3 MiB whole; both reports hold one elided copy of about 8 KiB.
    assert!(
        size("matrix.json") < 40_000,
        "{} bytes",
        size("matrix.json")
    );
    assert!(
        size("matrix.html") < 80_000,
        "{} bytes",
        size("matrix.html")
    );
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("matrix.json")).unwrap()).unwrap();
    let flood = &report["cases"][0];
    assert_eq!(flood["file"], json!(cases.join("large.yaml")));
    let digest = flood["cells"]["ours"]["outcome"].as_str().unwrap();
    assert_eq!(flood["cells"]["remote"]["outcome"], json!(digest));
    assert_eq!(report["outcomes"].as_object().unwrap().len(), 2);
    let entry = &report["outcomes"][digest];
    assert_eq!(entry["elided"], json!(true));
    assert!(
        entry["bytes"].as_u64().unwrap() > 3 << 20,
        "{}",
        entry["bytes"]
    );
    let logs = entry["outcome"]["logs"].as_array().unwrap();
    assert!(logs.last().unwrap()["$elided"]["items"].as_u64().unwrap() > 30);
    assert_eq!(
        entry["outcome"]["calls"],
        json!([]),
        "small values stay whole"
    );

    let url = file_url(&out.join("matrix.html"));
    let mut browser = Browser::open(&dir.join("profile"), &url);
    browser.wait_for("document.readyState === 'complete' && document.querySelectorAll('#grid td.cell').length > 0");
    assert_eq!(
        browser.eval("document.querySelectorAll('#grid td.cell.status-pass').length"),
        json!(4)
    );
    browser.click(&cell("large/log-flood", "remote"));
    browser.wait_for("!document.getElementById('detail').hidden");
    let detail = browser.eval(
        "({title: document.getElementById('detail-title').textContent,
           outcome: document.getElementById('detail-outcome').textContent,
           ours: document.getElementById('detail-ours').textContent,
           elided: document.getElementById('detail-elided').textContent,
           elidedHidden: document.getElementById('detail-elided').hidden})",
    );
    assert_eq!(detail["title"], json!("large/log-flood on remote"));
    let shown: Value = serde_json::from_str(detail["outcome"].as_str().unwrap()).unwrap();
    let brief = |v: &Value| v.to_string().chars().take(400).collect::<String>();
    assert_eq!(shown["result"], json!(48), "{}", brief(&shown));
    let first = shown["logs"][0]["$elided"]["head"]
        .as_str()
        .unwrap_or_default();
    assert!(first.starts_with("0 xxxx"), "{}", brief(&shown));
    assert_eq!(detail["ours"], detail["outcome"]);
    assert_eq!(detail["elidedHidden"], json!(false));
    let note = detail["elided"].as_str().unwrap();
    assert!(
        note.contains(digest) && note.contains("eval --case large/log-flood --full"),
        "{note}"
    );
    // A small outcome's panel says nothing of elision.
    browser.click(&cell("large/small", "ours"));
    browser
        .wait_for("document.getElementById('detail-title').textContent === 'large/small on ours'");
    assert_eq!(
        browser.eval("document.getElementById('detail-elided').hidden"),
        json!(true)
    );
    drop(browser);
    let _ = std::fs::remove_dir_all(dir);
}
