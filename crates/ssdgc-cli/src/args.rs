//! The command line's arguments (clap).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

#[derive(Parser)]
#[command(
    name = "ssdgc",
    version,
    about = "A fast, deterministic SSD simulator for studying garbage collection",
    long_about = "A fast, deterministic SSD simulator for studying garbage collection.\n\n\
                  With no trace and no --synthetic spec, runs a built-in workload: 200,000 uniformly \
                  random 4 KiB writes, closed loop at queue depth 32, on a preconditioned drive."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Run one GC scheme on one drive and workload.
    Run(RunArgs),
    /// Run several GC schemes, or any varied setting, on the same drive and workload, side by
    /// side, normalised to the first.
    Compare(CompareArgs),
    /// Run a paper's experiments and compare ssdgc's figures with the paper's claims.
    Reproduce(ReproduceArgs),
    /// Inspect a trace file.
    Trace {
        #[command(subcommand)]
        command: TraceCommand,
    },
    /// List presets, schemes, victim policies or trace formats.
    List {
        #[arg(value_enum)]
        what: ListWhat,
    },
}

#[derive(Subcommand)]
pub enum TraceCommand {
    /// Summarise a trace in one streaming pass: format, records, reads and writes, sizes, address
    /// span, duration, idle time, volumes.
    Info(TraceInfoArgs),
}

#[derive(Args)]
pub struct TraceInfoArgs {
    /// Trace file (gzip and zstd are read transparently).
    pub trace: PathBuf,
    /// Trace format (`ssdgc list formats`); detected from the content by default.
    #[arg(long, default_value = "auto")]
    pub format: String,
    /// Only this volume (Tencent) or device; every volume by default.
    #[arg(long)]
    pub volume: Option<u64>,
    /// Time unit of DiskSim ASCII traces: ns (MQSim/SSDSim files) or ms (DiskSim).
    #[arg(long, default_value = "ns")]
    pub disksim_time: String,
    /// blkparse event to count: D (issued to the device) or Q (queued).
    #[arg(long, default_value = "D")]
    pub blkparse_event: String,
    /// Gaps between arrivals at least this long count as idle time.
    #[arg(long, value_name = "DURATION", default_value = "10ms")]
    pub idle_gap: String,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum ListWhat {
    Presets,
    Schemes,
    Victims,
    Formats,
}

#[derive(Args, Clone)]
pub struct Common {
    /// Trace file to replay (gzip and zstd are read transparently).
    pub trace: Option<PathBuf>,
    /// Drive preset (`ssdgc list presets`).
    #[arg(long, default_value = "default")]
    pub preset: String,
    /// TOML configuration file applied over the preset.
    #[arg(long, value_name = "FILE.toml")]
    pub config: Option<PathBuf>,
    /// Override one setting, e.g. `--set geometry.channels=4` (repeatable).
    #[arg(long = "set", value_name = "SECTION.KEY=VALUE")]
    pub sets: Vec<String>,
    /// Victim policy and its parameters, string form (`greedy`, `rga:8`; `ssdgc list victims`).
    #[arg(long)]
    pub victim: Option<String>,
    /// Seed of every random choice (the first seed with --seeds).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Run every point with N seeds (seed, seed+1, …), in parallel, and add the mean and 95 %
    /// confidence interval of the headline figures (`seeds` in the report).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seeds: u64,
    /// Check the FTL's invariants while running (slow).
    #[arg(long)]
    pub check: bool,
    /// Print the report as JSON.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print the report as CSV: a header, then one row per run (flattened dotted keys).
    #[arg(long)]
    pub csv: bool,
    /// Synthetic workload, e.g. `count=100000,read=0.4,size=exp:32KiB,seq=0.4,interarrival=exp:3ms`.
    #[arg(long, value_name = "KEY=VAL,...", conflicts_with = "trace")]
    pub synthetic: Option<String>,
    /// Trace format (`ssdgc list formats`); detected from the content by default.
    #[arg(long, default_value = "auto")]
    pub format: String,
    /// Volume (Tencent) or device number to replay (`ssdgc trace info` lists them).
    #[arg(long)]
    pub volume: Option<u64>,
    /// Time unit of DiskSim ASCII traces: ns (MQSim/SSDSim files) or ms (DiskSim).
    #[arg(long, default_value = "ns")]
    pub disksim_time: String,
    /// blkparse event to replay: D (issued to the device) or Q (queued).
    #[arg(long, default_value = "D")]
    pub blkparse_event: String,
    /// Preconditioning: none, fill, steady, steady:N (N x capacity of random overwrites), trace or
    /// trace:N (the workload itself, then N x capacity of its writes).
    #[arg(long)]
    pub precondition: Option<String>,
    /// Trace replay: open (arrivals at trace time, the default) or closed:QD.
    #[arg(long)]
    pub replay: Option<String>,
    /// Multiply trace inter-arrival times by this factor (0.5 = twice as fast).
    #[arg(long)]
    pub time_scale: Option<f64>,
    /// Addresses beyond the drive: wrap (fold onto the logical space) or reject.
    #[arg(long)]
    pub fold: Option<String>,
    /// Device queue depth.
    #[arg(long)]
    pub queue_depth: Option<u32>,
    /// Add latency, bandwidth and free blocks per interval of simulated time, e.g. `100ms`.
    #[arg(long, value_name = "DURATION")]
    pub series_interval: Option<String>,
    /// Add latency per window of this many consecutive requests.
    #[arg(long, value_name = "N")]
    pub series_window: Option<u64>,
    /// Write every completed request to FILE as CSV (arrival, completion, op, offset, bytes,
    /// response time and its breakdown); with several runs, one file per run (FILE's name with
    /// the run's label and seed inserted).
    #[arg(long, value_name = "FILE")]
    pub latency_log: Option<PathBuf>,
    /// Write the distribution of response times to FILE as CSV: per class (all, read, write) one
    /// line per histogram bucket with its value in µs and the share of requests at or below it.
    #[arg(long, value_name = "FILE")]
    pub cdf: Option<PathBuf>,
    /// Keep the aged (preconditioned) drive in FILE, to start later runs from it (--load-state).
    #[arg(long, value_name = "FILE")]
    pub save_state: Option<PathBuf>,
    /// Start from the aged drive kept in FILE instead of preconditioning; its ageing inputs must
    /// be the run's (docs/report-schema.md "Aged state").
    #[arg(long, value_name = "FILE")]
    pub load_state: Option<PathBuf>,
    /// Print the effective configuration as TOML and exit.
    #[arg(long)]
    pub dump_config: bool,
    /// Check the arguments, the configuration of every run and the workload, list the runs, and
    /// exit without simulating (also with SSDGC_DRY_RUN=1).
    #[arg(long)]
    pub dry_run: bool,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Args)]
pub struct RunArgs {
    /// GC scheme (`ssdgc list schemes`).
    #[arg(long)]
    pub gc: Option<String>,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Args)]
pub struct CompareArgs {
    /// Comma-separated GC schemes (a varied setting of its own); results are normalised to the
    /// first run.
    #[arg(long, value_delimiter = ',')]
    pub gc: Vec<String>,
    /// A setting and its values, e.g. `victim=greedy,fifo,rga:8`, `gc.threshold=0.05,0.1`,
    /// `preset=pagc-small,pgc`, `precondition=fill,steady`; several make a grid (repeatable).
    #[arg(long, value_name = "KEY=V1,V2,...")]
    pub vary: Vec<String>,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Args)]
pub struct ReproduceArgs {
    /// Paper id (pagc, pgc, practical, ppm).
    pub paper: String,
    /// Run the quick variant of every experiment (smaller drives, fewer requests, one seed).
    #[arg(long)]
    pub quick: bool,
    /// Output directory (default `reproduce-<paper>`).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Check the paper's experiments and exit without running them (also with SSDGC_DRY_RUN=1).
    #[arg(long)]
    pub dry_run: bool,
    /// No progress notes on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// True when `SSDGC_DRY_RUN` asks for a dry run (set, and not empty, `0` or `false`).
pub fn dry_run_env() -> bool {
    std::env::var("SSDGC_DRY_RUN").is_ok_and(|v| !v.is_empty() && v != "0" && v != "false")
}
