"""The other simulators' side of bench/compare.py: MQSim's and SSDSim's input files for the matched
drive, and the figures read back from their outputs. Each format detail names the upstream file it
was taken from."""

from __future__ import annotations

import random
import re
import statistics
import struct
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import TYPE_CHECKING, Dict, List, Optional, Tuple

if TYPE_CHECKING:
    from compare import Drive

SECTOR = 512

# ---------------------------------------------------------------------------------------------
# MQSim: ssdconfig.xml (Execution_Parameter_Set) and a workload file with one trace-based flow.
# Element names from src/exec/Device_Parameter_Set.cpp, Flash_Parameter_Set.cpp,
# Host_Parameter_Set.cpp and IO_Flow_Parameter_Set.cpp (XML_deserialize), laid out as the
# repository's ssdconfig.xml and workload.xml.
# ---------------------------------------------------------------------------------------------


def mqsim_ssdconfig(drive: Drive, seed: int) -> str:
    d = drive.d
    host = [
        ("PCIe_Lane_Bandwidth", "1.000000"),  # GB/s per lane: never the bottleneck here
        ("PCIe_Lane_Count", "4"),
        ("Enable_ResponseTime_Logging", "false"),
        ("ResponseTime_Logging_Period_Length", "1000000"),
    ]
    device = [
        ("Seed", str(seed)),
        # Steady state from the flows' Initial_Occupancy_Percentage (src/ssd/FTL.cpp,
        # Perform_precondition): pages placed by the mean-field steady state of the policy.
        ("Enabled_Preconditioning", "true"),
        ("Memory_Type", "FLASH"),
        ("HostInterface_Type", "NVME"),
        ("IO_Queue_Depth", str(d["queue_depth"])),
        ("Queue_Fetch_Size", str(d["queue_depth"])),
        ("Data_Cache_Sharing_Mode", "SHARED"),
        ("Data_Cache_Capacity", "268435456"),
        ("Data_Cache_DRAM_Row_Size", "8192"),
        ("Data_Cache_DRAM_Data_Rate", "800"),
        ("Data_Cache_DRAM_Data_Busrt_Size", "4"),  # sic: MQSim's spelling
        ("Data_Cache_DRAM_tRCD", "13"),
        ("Data_Cache_DRAM_tCL", "13"),
        ("Data_Cache_DRAM_tRP", "13"),
        ("Address_Mapping", "PAGE_LEVEL"),
        # The whole mapping table in DRAM, as in ssdgc (no mapping reads or writes on flash).
        ("Ideal_Mapping_Table", "true"),
        ("CMT_Capacity", "2097152"),
        ("CMT_Sharing_Mode", "SHARED"),
        ("Plane_Allocation_Scheme", "CWDP"),
        ("Transaction_Scheduling_Policy", "OUT_OF_ORDER"),
        ("Overprovisioning_Ratio", repr(drive.overprovision)),
        ("GC_Exec_Threshold", repr(drive.gc_threshold)),
        ("GC_Block_Selection_Policy", "GREEDY"),
        ("Use_Copyback_for_GC", "false"),
        ("Preemptible_GC_Enabled", "false"),
        ("GC_Hard_Threshold", repr(drive.gc_threshold / 2)),
        ("Dynamic_Wearleveling_Enabled", "false"),
        ("Static_Wearleveling_Enabled", "false"),
        ("Static_Wearleveling_Threshold", "100"),
        ("Preferred_suspend_erase_time_for_read", "700000"),
        ("Preferred_suspend_erase_time_for_write", "700000"),
        ("Preferred_suspend_write_time_for_read", "100000"),
        ("Flash_Channel_Count", str(d["channels"])),
        ("Flash_Channel_Width", "1"),
        ("Channel_Transfer_Rate", str(d["channel_mts"])),
        ("Chip_No_Per_Channel", str(d["chips_per_channel"])),
        ("Flash_Comm_Protocol", "NVDDR2"),
    ]
    flash = [
        ("Flash_Technology", "SLC"),
        ("CMD_Suspension_Support", "NONE"),
        ("Page_Read_Latency_LSB", str(d["read_ns"])),
        ("Page_Read_Latency_CSB", str(d["read_ns"])),
        ("Page_Read_Latency_MSB", str(d["read_ns"])),
        ("Page_Program_Latency_LSB", str(d["program_ns"])),
        ("Page_Program_Latency_CSB", str(d["program_ns"])),
        ("Page_Program_Latency_MSB", str(d["program_ns"])),
        ("Block_Erase_Latency", str(d["erase_ns"])),
        ("Block_PE_Cycles_Limit", "100000"),
        ("Suspend_Erase_Time", "700000"),
        ("Suspend_Program_Time", "100000"),
        ("Die_No_Per_Chip", str(d["dies_per_chip"])),
        ("Plane_No_Per_Die", str(d["planes_per_die"])),
        ("Block_No_Per_Plane", str(d["blocks_per_plane"])),
        ("Page_No_Per_Block", str(d["pages_per_block"])),
        ("Page_Capacity", str(d["page_size"])),
        ("Page_Metadat_Capacity", "224"),  # sic: MQSim's spelling
    ]

    def elems(pairs: List[Tuple[str, str]], indent: str) -> List[str]:
        return [f"{indent}<{k}>{v}</{k}>" for k, v in pairs]

    return "\n".join(
        [
            '<?xml version="1.0" encoding="us-ascii"?>',
            "<Execution_Parameter_Set>",
            "\t<Host_Parameter_Set>",
            *elems(host, "\t\t"),
            "\t</Host_Parameter_Set>",
            "\t<Device_Parameter_Set>",
            *elems(device, "\t\t"),
            "\t\t<Flash_Parameter_Set>",
            *elems(flash, "\t\t\t"),
            "\t\t</Flash_Parameter_Set>",
            "\t</Device_Parameter_Set>",
            "</Execution_Parameter_Set>",
            "",
        ]
    )


def mqsim_workload(drive: Drive, trace: Path) -> str:
    d = drive.d
    ids = lambda n: ",".join(str(i) for i in range(n))  # noqa: E731
    flow = [
        ("Priority_Class", "HIGH"),
        # No DRAM write cache: ssdgc's drive has none (buffer.size = 0).
        ("Device_Level_Data_Caching_Mode", "TURNED_OFF"),
        ("Channel_IDs", ids(d["channels"])),
        ("Chip_IDs", ids(d["chips_per_channel"])),
        ("Die_IDs", ids(d["dies_per_chip"])),
        ("Plane_IDs", ids(d["planes_per_die"])),
        # Every logical page holds data at the start (the steady state of writes over it all).
        ("Initial_Occupancy_Percentage", "100"),
        ("File_Path", str(trace)),
        ("Percentage_To_Be_Executed", "100"),
        ("Relay_Count", "1"),
        ("Time_Unit", "NANOSECOND"),
    ]
    return "\n".join(
        [
            '<?xml version="1.0" encoding="us-ascii"?>',
            "<MQSim_IO_Scenarios>",
            "\t<IO_Scenario>",
            "\t\t<IO_Flow_Parameter_Set_Trace_Based>",
            *[f"\t\t\t<{k}>{v}</{k}>" for k, v in flow],
            "\t\t</IO_Flow_Parameter_Set_Trace_Based>",
            "\t</IO_Scenario>",
            "</MQSim_IO_Scenarios>",
            "",
        ]
    )


def mqsim_result_path(workload: Path) -> Path:
    # src/main.cpp: results go to <workload file without its extension>_scenario_<n>.xml.
    return workload.with_name(workload.stem + "_scenario_1.xml")


def _xml_value(elem: ET.Element, name: str) -> Optional[str]:
    """A statistic written either as an attribute (Write_attribute_string_inline, the FTL's) or as
    a child element (Write_attribute_string, the host flows')."""
    if name in elem.attrib:
        return elem.attrib[name]
    child = elem.find(name)
    return child.text if child is not None else None


def parse_mqsim(result: Path, pages_per_request: int) -> Dict[str, float]:
    """MQSim's result file (src/main.cpp collect_results): the flow's Write_Request_Count
    (Host.IO_Flow) and the FTL's Total_GC_Executions and Average_Page_Movement_For_GC
    (SSDDevice.FTL, src/ssd/FTL.cpp Report_results_in_XML)."""
    root = ET.parse(result).getroot()
    flow = next((e for e in root.iter() if e.tag.endswith(".IO_Flow")), None)
    ftl = next((e for e in root.iter() if e.tag.endswith(".FTL")), None)
    if flow is None or ftl is None:
        raise ValueError(f"{result}: no IO_Flow or FTL statistics")
    writes = _xml_value(flow, "Write_Request_Count")
    gc = _xml_value(ftl, "Total_GC_Executions")
    moves_per_gc = _xml_value(ftl, "Average_Page_Movement_For_GC")
    if writes is None or gc is None or moves_per_gc is None:
        raise ValueError(
            f"{result}: Write_Request_Count, Total_GC_Executions or Average_Page_Movement_For_GC "
            "missing (an MQSim older than the GC statistics?)"
        )
    n_gc = int(gc)
    per = float(moves_per_gc) if n_gc > 0 else 0.0
    return {
        "host_writes": int(writes) * pages_per_request,
        "gc_moves": int(round(per * n_gc)),
        "gc": n_gc,
        "requests": int(_xml_value(flow, "Request_Count") or writes),
    }


# ---------------------------------------------------------------------------------------------
# SSDSim: page.parameters (read from the working directory under that fixed name; the trace
# file name is read from standard input) -- initialize.c initiation() and load_parameters().
# ---------------------------------------------------------------------------------------------


def _f32(x: float) -> float:
    return struct.unpack("f", struct.pack("f", x))[0]


def ssdsim_logical_sectors(drive: Drive) -> int:
    """SSDSim's large_lsn (ssd.c get_requests): sectors x (1 - overprovide), overprovide read as a
    C float ("%f"), the product taken in single precision; addresses at or past it wrap."""
    sectors = drive.physical_pages * drive.sectors_per_page
    return int(_f32(float(sectors) * _f32(1.0 - _f32(drive.overprovision))))


def ssdsim_parameters(drive: Drive) -> str:
    d = drive.d
    ns_per_byte = max(1, round(1000.0 / d["channel_mts"]))  # one byte per transfer on an 8-bit bus
    chips = d["channels"] * d["chips_per_channel"]
    lines = [
        "#parameter file (written by bench/compare.py; keys as in SSDsim 2.1's page.parameters)",
        "dram capacity = 0;        #no DRAM buffer: ssdgc's drive has none",
    ]
    lines += [f"chip number[{i}] = {d['chips_per_channel']};" for i in range(d["channels"])]
    lines += [
        f"channel number = {d['channels']};",
        f"chip number = {chips};",
        f"die number = {d['dies_per_chip']};",
        f"plane number = {d['planes_per_die']};",
        f"block number = {d['blocks_per_plane']};",
        f"page number = {d['pages_per_block']};",
        f"subpage page = {drive.sectors_per_page};",
        f"page capacity = {d['page_size']};",
        f"subpage capacity = {SECTOR};",
        f"t_PROG = {d['program_ns']};",
        "t_DBSY = 50;",
        f"t_BERS = {d['erase_ns']};",
        "t_CLS = 12;",
        "t_CLH = 5;",
        "t_CS = 20;",
        "t_CH = 5;",
        "t_WP = 12;",
        "t_ALS = 12;",
        "t_ALH = 5;",
        "t_DS = 12;",
        "t_DH = 5;",
        f"t_WC = {ns_per_byte};",
        "t_WH = 10;",
        "t_ADL = 70;",
        f"t_R = {d['read_ns']};",
        "t_AR = 10;",
        "t_CLR = 10;",
        "t_RR = 20;",
        "t_RP = 12;",
        "t_WB = 100;",
        f"t_RC = {ns_per_byte};",
        "t_REA = 30;",
        "t_CEA = 45;",
        "t_RHZ = 100;",
        "t_CHZ = 30;",
        "t_RHOH = 15;",
        "t_RLOH = 5;",
        "t_COH = 15;",
        "t_REH = 10;",
        "t_IR = 0;",
        "t_RHW = 100;",
        "t_WHR = 60;",
        "t_RST = 5000;",
        "erase limit=100000;",
        "flash operating current=25000.0;",
        "flash supply voltage=3.3;",
        "dram active current=125000;",
        "dram standby current=50000;",
        "dram refresh current=5000;",
        "dram voltage=3.3;",
        "address mapping=1;               #page mapping",
        "wear leveling=1;",
        "gc=1;",
        f"overprovide={drive.overprovision!r};",
        f"gc threshold={drive.gc_threshold!r};",
        "buffer management=0;",
        "scheduling algorithm=1;          #FCFS",
        # With "active write" off (the default), only this threshold triggers GC (pagemap.c).
        f"gc hard threshold={drive.gc_threshold!r};",
        "allocation=1;                    #static allocation",
        # Static mode 1: channel = lpn % channels, then chip, die, plane (pagemap.c,
        # get_ppn_for_pre_process): ssdgc's and MQSim's CWDP.
        "static_allocation=1;",
        "dynamic_allocation=0;",
        "advanced command=0;              #no copyback, multi-plane or interleaved commands",
        "advanced command priority=0;",
        "greed CB command=0;",
        "greed MPW command=0;",
        "aged=0;                          #aged by replaying a fill and random overwrites instead",
        "aged ratio=0.7;",
        f"queue_length={d['queue_depth']};",
    ]
    return "\n".join(lines) + "\n"


def parse_ssdsim(statistics_file: Path, pages_per_request: int) -> Dict[str, float]:
    """SSDSim's statistics file statistic10.dat (ssd.c statistic_output): "program count" counts
    every page programmed (host writes, GC moves and the pre-processing of reads), "erase" the
    erases summed over the blocks, "write request count" the host write requests."""
    text = statistics_file.read_text(errors="replace")

    def field(label: str) -> int:
        m = re.search(rf"^{re.escape(label)}:\s*(-?\d+)", text, re.MULTILINE)
        if m is None:
            raise ValueError(f"{statistics_file}: no '{label}:' line (did SSDSim finish?)")
        return int(m.group(1))

    programs = field("program count")
    writes = field("write request count") * pages_per_request
    return {
        "host_writes": writes,
        "programs": programs,
        "gc": field("erase"),
        "requests": field("write request count") + field("read request count"),
    }
