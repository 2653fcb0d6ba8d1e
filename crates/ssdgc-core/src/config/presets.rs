//! The built-in drive presets: the papers' drives and a small default, as TOML layered on the
//! default.

/// The PaGC paper's Table I drive (§VI) with `$blocks` blocks per plane: 16 channels × 8 chips of one
/// die with 2 planes, 8 KiB pages, 256 pages per block, 25 % spare, 75 µs / 1.5 ms / 3.8 ms, GC below
/// 7 % free pages per plane, and every request dispatched at once — with the invocation semantics
/// of the paper's simulator, SSDsim: one victim per write that finds its plane below the threshold
/// (`gc.collect = "one"`; SSDsim's `get_ppn` queues one GC node per such write), and its
/// read-modify-write of partly written pages (`ftl.rmw = true`; SSDsim's `allocate_location`
/// reads the sectors a write does not cover before the write).
macro_rules! pagc_table1 {
    ($blocks:literal) => {
        concat!(
            "[geometry]\nchannels = 16\nchips_per_channel = 8\ndies_per_chip = 1\nplanes_per_die = 2\n",
            "blocks_per_plane = ",
            $blocks,
            "\npages_per_block = 256\npage_size = \"8KiB\"\noverprovision = 0.25\n",
            "[timing]\nread = \"75us\"\nprogram = \"1500us\"\nerase = \"3800us\"\nchannel_rate_mts = 333\n",
            "[ftl]\nrmw = true\n",
            "[gc]\nthreshold = 0.07\ntrigger = \"pages\"\ncollect = \"one\"\n[host]\nqueue_depth = 65536\n"
        )
    };
}

/// The parallel-page-migration paper's Table 1 drive (§V-A) with `$pages` pages per block and
/// read / program / erase times: 4 channels × 4 chips × 2 dies × 2 planes × 2,048 blocks of 4 KiB
/// pages, 15 % over-provisioned blocks, greedy victims (the default), GC below 10 % free blocks (the
/// paper's main threshold; 5 % and 14 % are its others). Its simulator (the MSR SSD extension of
/// DiskSim) cleans one victim per plane per call (`gc.collect = "one"`) and schedules GC, then
/// reads, then writes (`host.priority = "reads-first"`); the paper's architecture has N data
/// registers per plane (Fig. 3; 4, its most workers) whose moves overlap fully ("the interleaving
/// time is negligible", §IV-B: `register_sharing = "none"`, the conservative reading being
/// `"array"`), and the drive is preconditioned from the workload itself (§V-A-3), then with one
/// capacity of its own writes (see `ageing`).
macro_rules! ppm_table1 {
    ($pages:literal, $read:literal, $program:literal, $erase:literal) => {
        concat!(
            "[geometry]\nchannels = 4\nchips_per_channel = 4\ndies_per_chip = 2\nplanes_per_die = 2\n",
            "blocks_per_plane = 2048\npages_per_block = ",
            $pages,
            "\npage_size = \"4KiB\"\noverprovision = 0.15\n",
            "registers_per_plane = 4\nregister_sharing = \"none\"\n",
            "[timing]\nread = \"",
            $read,
            "\"\nprogram = \"",
            $program,
            "\"\nerase = \"",
            $erase,
            "\"\n",
            "[gc]\nvictim = \"greedy\"\nthreshold = 0.10\ncollect = \"one\"\n",
            "[host]\npriority = \"reads-first\"\n",
            "[precondition]\nmode = \"trace\"\noverwrites = 1.0\n"
        )
    };
}

/// The built-in presets: name, description, TOML overrides on top of `default`.
pub const PRESETS: &[(&str, &str, &str)] = &[
    (
        "default",
        "small 2x2x1x2 MLC drive (8 planes, 512 MiB raw), runs in seconds",
        PRESET_DEFAULT,
    ),
    (
        "pagc",
        "PaGC paper Table I: 800 GB-class enterprise drive, 16 ch x 8 chips, 2 planes/die, 8 KiB pages",
        pagc_table1!(2048),
    ),
    (
        "pagc-small",
        "the PaGC Table I drive with 128 blocks per plane instead of 2,048 (16 ch x 8 chips, 64 GiB raw)",
        pagc_table1!(128),
    ),
    (
        "pgc",
        "preemptible-GC paper Table VI: 8 ch x 1 element of 8 planes (one die: GC blocks the element), 64-page blocks, SLC timing, 102 us/page transfers, filled once",
        PRESET_PGC,
    ),
    (
        "ppm-slc",
        "parallel-page-migration paper Table 1, SLC: 4 ch x 4 chips x 2 dies x 2 planes, 64-page blocks, GC > reads > writes, 4 registers per plane, preconditioned from the workload",
        ppm_table1!("64", "25us", "200us", "1500us"),
    ),
    (
        "ppm-mlc",
        "parallel-page-migration paper Table 1, MLC: as ppm-slc with 256-page blocks and MLC timing",
        ppm_table1!("256", "75us", "1300us", "3800us"),
    ),
    (
        "agc-64g",
        "AGC/DGC paper: 64 GB drive, 4 ch x 4 ways, 2 dies x 2 planes, 128-page blocks, 3% free, 1% GC threshold, L-FTL, filled once",
        "[geometry]\nchannels = 4\nchips_per_channel = 4\ndies_per_chip = 2\nplanes_per_die = 2\n\
         blocks_per_plane = 2048\npages_per_block = 128\npage_size = \"4KiB\"\noverprovision = 0.03\n\
         [timing]\nread = \"183200ns\"\nprogram = \"860360ns\"\nerase = \"2ms\"\n\
         [gc]\nthreshold = 0.01\n[ftl]\nmapping = \"lftl\"\n[precondition]\nmode = \"fill\"\n",
    ),
    (
        "agc-128g",
        "AGC/DGC paper: 128 GB drive, 8 ch x 8 ways, 2 dies x 2 planes, 128-page blocks, 3% free, 1% GC threshold, L-FTL, filled once",
        "[geometry]\nchannels = 8\nchips_per_channel = 8\ndies_per_chip = 2\nplanes_per_die = 2\n\
         blocks_per_plane = 1024\npages_per_block = 128\npage_size = \"4KiB\"\noverprovision = 0.03\n\
         [timing]\nread = \"183200ns\"\nprogram = \"860360ns\"\nerase = \"2ms\"\n\
         [gc]\nthreshold = 0.01\n[ftl]\nmapping = \"lftl\"\n[precondition]\nmode = \"fill\"\n",
    ),
    (
        "practical",
        "practical-GC paper: 6 GiB OpenSSD-like MLC drive, 4 ch x 4 ways x 2 planes, 128 x 8 KiB pages per block, 12.5% spare",
        "[geometry]\nchannels = 4\nchips_per_channel = 4\ndies_per_chip = 1\nplanes_per_die = 2\n\
         blocks_per_plane = 220\npages_per_block = 128\npage_size = \"8KiB\"\noverprovision = 0.125\n\
         [timing]\nread = \"60us\"\nprogram = \"1300us\"\nerase = \"3500us\"\n",
    ),
];

/// The preemptible-GC paper's Table VI drive as its simulator (the MSR SSD extension of DiskSim, with
/// its shipped parameters) runs it: 8 channels of one 8-plane element; the element is one parallel
/// unit, so it is one die of 8 planes here and a GC job holds all of it. 64-page blocks of 4 KiB,
/// 15 % spare, 25 µs / 200 µs / 1.5 ms, GC below 5 % free blocks (T_soft of the preemptible
/// schemes). Transfers take the simulator's 25 ns per byte (102.4 µs per 4 KiB page: 40 MT/s on
/// an 8-bit bus). The simulator cleans one victim per plane per call (`gc.collect = "one"`), and
/// the paper fills the drive once before a run (`precondition.mode = "fill"`).
const PRESET_PGC: &str = "\
[geometry]
channels = 8
chips_per_channel = 1
dies_per_chip = 1
planes_per_die = 8
blocks_per_plane = 2048
pages_per_block = 64
page_size = \"4KiB\"
overprovision = 0.15
[timing]
read = \"25us\"
program = \"200us\"
erase = \"1500us\"
channel_rate_mts = 40
[gc]
threshold = 0.05
collect = \"one\"
[precondition]
mode = \"fill\"
";

pub(super) const PRESET_DEFAULT: &str = r#"
[geometry]
channels = 2
chips_per_channel = 2
dies_per_chip = 1
planes_per_die = 2
blocks_per_plane = 256
pages_per_block = 64
page_size = "4KiB"
overprovision = 0.20
registers_per_plane = 1
register_sharing = "array"

[timing]
read = "50us"
program = "600us"
erase = "3ms"
channel_rate_mts = 333
channel_width_bits = 8
command = "0ns"
suspend = "20us"

[ftl]
allocation = "CWDP"
pool = "fifo"
hot_to = "young"
hot_cold = false
mapping = "page"
log_blocks = 0
group_data_blocks = 2
group_update_blocks = 8
rmw = false
multiplane = "off"

[gc]
scheme = "baseline"
victim = "greedy"
threshold = 0.03
trigger = "blocks"
pagc_threshold = 0.0
pagc_margin = "relative"
idle_threshold = 0.0
ncq_busy = 8
ncq_min_gain = 0.1
soft_threshold = 0.0
hard_threshold = 0.0
copyback = true
copyback_ecc = "none"
when = "scheme"
collect = "scheme"
preempt = "scheme"
merge = "scheme"
pipeline = "scheme"
suspend = "scheme"
planes = "scheme"
migration = "scheme"
long_idle = "1s"
agc_threshold = 0.0
dgc_reserve = 1.0
workers = 0
copyback_parity = "none"
erase_blocks = 1
blocking = "die"

[host]
queue_depth = 32
fold = "wrap"
time_scale = 1.0
excess_bound = "30ms"
critical_path = false
priority = "fifo"

[buffer]
size = 0
latency = "20ns"

[precondition]
mode = "steady"
overwrites = 2.0

[array]
drives = 1
chunk = "64KiB"
disks = []
"#;

/// Names and descriptions of the presets.
pub fn presets() -> impl Iterator<Item = (&'static str, &'static str)> {
    PRESETS.iter().map(|(n, d, _)| (*n, *d))
}
