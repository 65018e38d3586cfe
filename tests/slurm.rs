//! The shipped Slurm scripts (`tools/cluster/slurm/`) on a real one-node cluster: munged, then
//! slurmctld and slurmd with a minimal slurm.conf naming this host, its cores and memory, all
//! in a scratch folder on free ports. A study of 3 slices, one of them written before (an
//! interrupted study), is submitted with `submit.sh --wait` (the array job, then the merge once
//! every slice succeeded): the slice written is kept, and the merge must print what one
//! `simulate` run prints, timings aside. Skipped, saying why, where Slurm and munge are not
//! installed or we are not root (`.ci/run` installs them where apt is at hand).

mod common;

use common::{root, text, tilekit, untimed_json, untimed_text};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The programs the cluster needs.
const PROGRAMS: [&str; 5] = ["munged", "slurmctld", "slurmd", "sbatch", "sinfo"];

/// How long the cluster may take to come up, and a study to run on it.
const START_LIMIT: Duration = Duration::from_secs(60);
const STUDY_LIMIT: Duration = Duration::from_secs(300);

/// Finds a program on the PATH or in the system folders daemons live in.
fn find(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    (std::env::split_paths(&path).chain(["/usr/sbin".into(), "/sbin".into()]))
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

/// Why the test cannot run here, if it cannot.
fn skip_reason() -> Option<String> {
    let missing: Vec<&str> = PROGRAMS.into_iter().filter(|p| find(p).is_none()).collect();
    if !missing.is_empty() {
        return Some(format!(
            "{} not installed (apt-get install slurm-wlm munge)",
            missing.join(", ")
        ));
    }
    let uid = Command::new("id").arg("-u").output().ok();
    if uid.is_none_or(|o| text(&o.stdout).trim() != "0") {
        return Some("not root (the one-node cluster runs its daemons as root)".to_string());
    }
    None
}

/// The cluster's daemons, killed when dropped (a failing test included), and its folder.
struct Cluster {
    daemons: Vec<Child>,
    dir: tempfile::TempDir,
    conf: PathBuf,
}

impl Drop for Cluster {
    fn drop(&mut self) {
        // slurmd first, munged last: each later one serves the earlier.
        for child in self.daemons.iter_mut().rev() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Cluster {
    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// Starts a daemon in the foreground, its output in `log/NAME.out`.
    fn spawn(&mut self, program: &str, args: &[&str]) {
        let log = std::fs::File::create(self.path(&format!("log/{program}.out"))).expect("log");
        let child = Command::new(find(program).expect("found before"))
            .args(args)
            .env("SLURM_CONF", &self.conf)
            .stdout(log.try_clone().expect("log"))
            .stderr(log)
            .spawn()
            .unwrap_or_else(|e| panic!("{program} does not start: {e}"));
        // Pushed in start order, so that dropping kills in the reverse one.
        self.daemons.push(child);
    }

    /// Every log of the cluster, for a failure's message.
    fn logs(&self) -> String {
        let mut out = String::new();
        for entry in common_entries(&self.path("log")) {
            let body = std::fs::read_to_string(&entry).unwrap_or_default();
            let tail: Vec<&str> = body.lines().rev().take(30).collect();
            out.push_str(&format!("== {}\n", entry.display()));
            for line in tail.into_iter().rev() {
                out.push_str(line);
                out.push('\n');
            }
        }
        out
    }

    /// A command of the cluster's clients (`sinfo`, `sbatch`) with its configuration.
    fn client(&self, program: &str) -> Command {
        let mut command = Command::new(find(program).unwrap_or_else(|| program.into()));
        command.env("SLURM_CONF", &self.conf);
        command
    }
}

fn common_entries(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|e| e.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    entries.sort();
    entries
}

/// A port free now (bound, then let go).
fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("address").port()
}

/// This node as slurmd sees it (`NodeName=… CPUs=… RealMemory=…`), and its name.
fn this_node() -> (String, String) {
    let out = Command::new(find("slurmd").expect("found before"))
        .arg("-C")
        .output()
        .expect("slurmd -C");
    let line = text(&out.stdout)
        .lines()
        .find(|l| l.starts_with("NodeName="))
        .unwrap_or_else(|| panic!("slurmd -C said: {}", text(&out.stdout)))
        .to_string();
    let name = line["NodeName=".len()..]
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_string();
    (name, line)
}

/// A minimal configuration: this host, its cores and memory, one partition, no cgroups and no
/// accounting; state, spool, logs and munge's socket in the scratch folder.
fn slurm_conf(dir: &Path, host: &str, node: &str) -> String {
    let d = dir.display();
    format!(
        "ClusterName=tilekit-test
SlurmctldHost={host}
SlurmctldPort={}
SlurmdPort={}
AuthType=auth/munge
AuthInfo=socket={d}/munge/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation={d}/state
SlurmdSpoolDir={d}/spool
SlurmctldPidFile={d}/slurmctld.pid
SlurmdPidFile={d}/slurmd.pid
SlurmctldLogFile={d}/log/slurmctld.log
SlurmdLogFile={d}/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
{node} State=UNKNOWN
PartitionName=main Nodes={host} Default=YES MaxTime=INFINITE State=UP
",
        free_port(),
        free_port()
    )
}

/// Starts munged, slurmctld and slurmd and waits for the node to be idle.
fn start_cluster() -> Cluster {
    let dir = tempfile::tempdir().expect("temp dir");
    for sub in ["munge", "state", "spool", "log"] {
        std::fs::create_dir(dir.path().join(sub)).expect("mkdir");
    }
    let (host, node) = this_node();
    let conf = dir.path().join("slurm.conf");
    std::fs::write(&conf, slurm_conf(dir.path(), &host, &node)).expect("slurm.conf");
    let mut cluster = Cluster {
        daemons: Vec::new(),
        dir,
        conf,
    };
    let key = cluster.path("munge/munge.key");
    make_munge_key(&key);
    let m = |name: &str| cluster.path(&format!("munge/{name}")).display().to_string();
    let munge_args = [
        "-F".to_string(),
        "--force".to_string(),
        format!("--socket={}", m("munge.socket")),
        format!("--key-file={}", key.display()),
        format!("--pid-file={}", m("munged.pid")),
        format!("--seed-file={}", m("munged.seed")),
        format!("--log-file={}", m("munged.log")),
    ];
    let munge_args: Vec<&str> = munge_args.iter().map(String::as_str).collect();
    cluster.spawn("munged", &munge_args);
    wait_for(&cluster, "munged's socket", || {
        cluster.path("munge/munge.socket").exists()
    });
    let conf = cluster.conf.display().to_string();
    cluster.spawn("slurmctld", &["-D", "-f", &conf]);
    cluster.spawn("slurmd", &["-D", "-f", &conf]);
    wait_for(&cluster, "the node to be idle", || {
        let out = cluster.client("sinfo").args(["-h", "-o", "%T"]).output();
        out.is_ok_and(|o| text(&o.stdout).contains("idle"))
    });
    cluster
}

/// A munge key by `mungekey`, else 128 bytes of the kernel's randomness.
fn make_munge_key(key: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let made = find("mungekey").is_some_and(|p| {
        Command::new(p)
            .args(["-c", "-k"])
            .arg(key)
            .status()
            .is_ok_and(|s| s.success())
    });
    if !made {
        let mut bytes = vec![0u8; 128];
        let mut random = std::fs::File::open("/dev/urandom").expect("/dev/urandom");
        std::io::Read::read_exact(&mut random, &mut bytes).expect("random bytes");
        std::fs::write(key, bytes).expect("munge key");
    }
    std::fs::set_permissions(key, std::fs::Permissions::from_mode(0o600)).expect("chmod");
}

fn wait_for(cluster: &Cluster, what: &str, ready: impl Fn() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(
            start.elapsed() < START_LIMIT,
            "no {what} after {START_LIMIT:?}:\n{}",
            cluster.logs()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn a_study_submitted_to_slurm_merges_into_one_run() {
    if let Some(why) = skip_reason() {
        eprintln!("skipped: {why}");
        return;
    }
    let started = Instant::now();
    let cluster = start_cluster();
    eprintln!("the one-node cluster was up in {:.1?}", started.elapsed());
    let study = cluster.path("study");
    let args = ["--sets", "base", "--games", "60", "--seed", "7"];
    // Slice 2 was written before (a study interrupted): the array task keeps it.
    let slice_2 = study.join("slice-2.json").display().to_string();
    let mut first: Vec<&str> = vec!["simulate"];
    first.extend(args);
    first.extend(["--shard", "2/3", "--out", &slice_2]);
    assert!(tilekit(&first).status.success());
    let written = std::fs::read(&slice_2).expect("slice 2");
    let submitted = Instant::now();
    let mut submit = cluster
        .client(
            &root()
                .join("tools/cluster/slurm/submit.sh")
                .display()
                .to_string(),
        )
        .arg("--wait")
        .arg("3")
        .arg(&study)
        .args(args)
        .env("TILEKIT", env!("CARGO_BIN_EXE_tilekit"))
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("submit.sh runs");
    let status = loop {
        if let Some(status) = submit.try_wait().expect("wait") {
            break status;
        }
        if submitted.elapsed() > STUDY_LIMIT {
            let _ = submit.kill();
            panic!("the study took over {STUDY_LIMIT:?}:\n{}", cluster.logs());
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let out = submit.wait_with_output().expect("output");
    assert!(
        status.success(),
        "submit.sh --wait: {}{}\n{}",
        text(&out.stdout),
        text(&out.stderr),
        cluster.logs()
    );
    eprintln!("the study ran on Slurm in {:.1?}", submitted.elapsed());
    for k in 1..=3 {
        assert!(study.join(format!("slice-{k}.json")).is_file(), "slice {k}");
    }
    assert_eq!(std::fs::read(&slice_2).expect("slice 2"), written);
    let logs: String = common_entries(&study)
        .iter()
        .filter(|p| p.display().to_string().ends_with("_2.out"))
        .map(|p| std::fs::read_to_string(p).unwrap_or_default())
        .collect();
    assert!(logs.contains("already there: kept"), "task 2 said: {logs}");
    let read = |name: &str| std::fs::read_to_string(study.join(name)).expect(name);
    let mut one: Vec<&str> = vec!["simulate"];
    one.extend(args);
    let text_run = text(&tilekit(&one).stdout);
    one.push("--json");
    let json_run = text(&tilekit(&one).stdout);
    assert_eq!(untimed_json(&read("study.json")), untimed_json(&json_run));
    assert_eq!(untimed_text(&read("study.txt")), untimed_text(&text_run));
    eprintln!("start to finish: {:.1?}", started.elapsed());
}
