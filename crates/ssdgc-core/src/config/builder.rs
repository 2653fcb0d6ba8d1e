//! Building a configuration layer by layer: a preset, TOML files, `--set` assignments; each layer
//! checked against the keys and types the configuration knows, with the file and line of a
//! problem.

use super::*;

/// Builds configurations layer by layer.
#[derive(Clone, Debug)]
pub struct ConfigBuilder {
    table: toml::Table,
}

fn parse_table(text: &str, source_name: &str) -> Result<toml::Table, ConfigError> {
    text.parse::<toml::Table>().map_err(|e| {
        let line = e.span().map(|s| text[..s.start].lines().count().max(1));
        let msg: Vec<&str> = e
            .message()
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        ConfigError::new(source_name, line, msg.join(": "))
    })
}

fn toml_kind(v: &toml::Value) -> &'static str {
    match v {
        toml::Value::String(_) => "a string",
        toml::Value::Integer(_) => "an integer",
        toml::Value::Float(_) => "a number",
        toml::Value::Boolean(_) => "true or false",
        toml::Value::Datetime(_) => "a date",
        toml::Value::Array(_) => "an array",
        toml::Value::Table(_) => "a table",
    }
}

/// Keys that take a duration or a size: a string with a unit, or a bare integer.
fn takes_unit(section: &str, key: &str) -> bool {
    (section == "timing" && !key.starts_with("channel_"))
        || (section == "geometry" && key == "page_size")
        || section == "buffer"
        || (section == "array" && key == "chunk")
        || (section == "gc" && key == "long_idle")
        || (section == "host" && key == "excess_bound")
}

/// Whether a user value may stand where the default has `expected`.
fn compatible(section: &str, key: &str, expected: &toml::Value, got: &toml::Value) -> bool {
    use toml::Value as V;
    match (expected, got) {
        // The on/off axes take true/false as well as "scheme".
        (V::String(_), V::Boolean(_)) if section == "gc" && matches!(key, "merge" | "pipeline") => {
            true
        }
        // The victim policy: the string form or the table form (checked by `check_entry`).
        (V::String(_), _) if section == "gc" && key == "victim" => true,
        (V::Float(_), V::Integer(_)) => true,
        (V::String(_) | V::Integer(_), V::String(_) | V::Integer(_))
            if takes_unit(section, key) =>
        {
            true
        }
        (a, b) => std::mem::discriminant(a) == std::mem::discriminant(b),
    }
}

/// 1-based line of `key` inside `[section]` in TOML text, for error messages.
fn find_key_line(text: &str, section: Option<&str>, key: &str) -> Option<usize> {
    let mut in_section = section.is_none();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.starts_with('[') {
            let name = line.trim_matches(|c| c == '[' || c == ']').trim();
            in_section = Some(name) == section;
            // `[key]`, or a setting written as its own table: `[section.key]`.
            let table = section.map_or(key.to_string(), |s| format!("{s}.{key}"));
            if name == table {
                return Some(i + 1);
            }
            continue;
        }
        if let Some((k, _)) = line.split_once('=') {
            let k: String = k
                .split('.')
                .map(|p| p.trim().trim_matches('"'))
                .collect::<Vec<_>>()
                .join(".");
            // `key = …` inside `[section]`, or the dotted `section.key = …` outside any section.
            let dotted = section.map(|s| format!("{s}.{key}"));
            if (in_section && k == key) || (!in_section && Some(&k) == dotted.as_ref()) {
                return Some(i + 1);
            }
        }
    }
    None
}

impl ConfigBuilder {
    /// Starts from a preset.
    pub fn preset(name: &str) -> Result<Self, ConfigError> {
        let base = parse_table(PRESET_DEFAULT, "preset default")?;
        let mut b = ConfigBuilder { table: base };
        if name != "default" {
            let Some((_, _, text)) = PRESETS.iter().find(|(n, _, _)| *n == name) else {
                let names: Vec<&str> = PRESETS.iter().map(|(n, _, _)| *n).collect();
                return Err(ConfigError::new(
                    "--preset",
                    None,
                    format!("unknown preset '{name}' (known: {})", names.join(", ")),
                ));
            };
            b.merge_text(text, &format!("preset {name}"))?;
        }
        Ok(b)
    }

    /// Merges a TOML document (a config file's text); `source_name` names it in errors.
    pub fn merge_text(&mut self, text: &str, source_name: &str) -> Result<(), ConfigError> {
        let user = parse_table(text, source_name)?;
        for (section, value) in &user {
            // The checks run in the file's order: an integer of an earlier key that does not fit
            // its setting is reported before a later problem.
            let misfit_before = |key: Option<&str>| {
                self.first_misfit(&user, Some((section, key)))
                    .map(|(s, k, msg)| {
                        ConfigError::new(source_name, find_key_line(text, Some(s), k), msg)
                    })
            };
            let Some(toml::Value::Table(known)) = self.table.get(section) else {
                return Err(misfit_before(None).unwrap_or_else(|| {
                    ConfigError::new(
                        source_name,
                        find_key_line(text, None, section),
                        format!(
                            "unknown section '[{section}]' (known: {})",
                            self.table.keys().cloned().collect::<Vec<_>>().join(", ")
                        ),
                    )
                }));
            };
            let toml::Value::Table(entries) = value else {
                return Err(misfit_before(None).unwrap_or_else(|| {
                    ConfigError::new(
                        source_name,
                        find_key_line(text, None, section),
                        format!("'{section}' must be a section [{section}]"),
                    )
                }));
            };
            for (key, v) in entries {
                if let Err(msg) = check_entry(known, section, key, v) {
                    return Err(misfit_before(Some(key)).unwrap_or_else(|| {
                        ConfigError::new(source_name, find_key_line(text, Some(section), key), msg)
                    }));
                }
            }
        }
        // Every integer fits its setting's type when the merged layers deserialise (one pass);
        // only when they do not are the integers checked one by one to name the culprit.
        if self.has_integer(&user) && !self.fits_merged(&user) {
            if let Some((s, k, msg)) = self.first_misfit(&user, None) {
                return Err(ConfigError::new(
                    source_name,
                    find_key_line(text, Some(s), k),
                    msg,
                ));
            }
        }
        for (section, value) in user {
            if let (Some(toml::Value::Table(dst)), toml::Value::Table(src)) =
                (self.table.get_mut(&section), value)
            {
                for (k, v) in src {
                    dst.insert(k, v);
                }
            }
        }
        Ok(())
    }

    /// Merges a TOML file.
    pub fn merge_file(&mut self, path: &std::path::Path) -> Result<(), ConfigError> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|e| ConfigError::new(&name, None, format!("cannot read: {e}")))?;
        self.merge_text(&text, &name)
    }

    /// Applies one `section.key=value` override. The value is read as a TOML value, or as a plain
    /// string when it is not one (`ftl.allocation=PCWD`).
    pub fn set(&mut self, assignment: &str) -> Result<(), ConfigError> {
        if assignment.contains(['\n', '\r']) {
            return Err(ConfigError::new(
                &format!("--set {}", assignment.escape_debug()),
                None,
                "an assignment must be one line (it contains a line break)",
            ));
        }
        let src = format!("--set {assignment}");
        let err = |msg: String| ConfigError::new(&src, None, msg);
        let (path, raw) = assignment
            .split_once('=')
            .ok_or_else(|| err("expected section.key=value".into()))?;
        let (section, key) = path
            .trim()
            .split_once('.')
            .ok_or_else(|| err("expected section.key=value".into()))?;
        let raw = raw.trim();
        let value = match format!("v = {raw}").parse::<toml::Table>() {
            Ok(mut t) => t.remove("v").unwrap_or(toml::Value::String(raw.into())),
            Err(_) => toml::Value::String(raw.to_string()),
        };
        let Some(toml::Value::Table(known)) = self.table.get(section) else {
            return Err(err(format!(
                "unknown section '{section}' (known: {})",
                self.table.keys().cloned().collect::<Vec<_>>().join(", ")
            )));
        };
        check_entry(known, section, key, &value).map_err(err)?;
        self.check_fits(section, key, &value).map_err(err)?;
        if let Some(toml::Value::Table(known)) = self.table.get_mut(section) {
            known.insert(key.to_string(), value);
        }
        Ok(())
    }

    /// Whether the user document holds an integer setting (the only values `check_fits` tests).
    fn has_integer(&self, user: &toml::Table) -> bool {
        user.values().any(|sec| match sec {
            toml::Value::Table(entries) => entries
                .values()
                .any(|v| matches!(v, toml::Value::Integer(_))),
            _ => false,
        })
    }

    /// Whether the current layers with the user document merged in deserialise, or the current
    /// layers alone do not (then no integer is blamed, as in `check_fits`).
    fn fits_merged(&self, user: &toml::Table) -> bool {
        if !self.deserialises() {
            return true;
        }
        let mut t = self.table.clone();
        for (section, value) in user {
            if let (Some(toml::Value::Table(dst)), toml::Value::Table(src)) =
                (t.get_mut(section), value)
            {
                for (k, v) in src {
                    dst.insert(k.clone(), v.clone());
                }
            }
        }
        toml::Value::Table(t).try_into::<Config>().is_ok()
    }

    /// The first integer of the user document, in its order, that does not fit its setting: its
    /// section, key and message. The search ends at `stop`, if given: a section and key, or the
    /// start of a section (key `None`).
    fn first_misfit<'a>(
        &self,
        user: &'a toml::Table,
        stop: Option<(&str, Option<&str>)>,
    ) -> Option<(&'a str, &'a str, String)> {
        let base_ok = self.deserialises();
        for (section, value) in user {
            if stop == Some((section.as_str(), None)) {
                return None;
            }
            let toml::Value::Table(entries) = value else {
                continue;
            };
            for (key, v) in entries {
                if stop == Some((section.as_str(), Some(key.as_str()))) {
                    return None;
                }
                if let Err(msg) = self.fits_with(base_ok, section, key, v) {
                    return Some((section, key, msg));
                }
            }
        }
        None
    }

    fn deserialises(&self) -> bool {
        toml::Value::Table(self.table.clone())
            .try_into::<Config>()
            .is_ok()
    }

    /// An integer must fit its setting's type (`u32` for counts, unsigned for durations and
    /// sizes): checked by deserialising the current layers with the value in place, so that the
    /// error names the key (and the file's line) rather than surfacing later without either.
    fn check_fits(&self, section: &str, key: &str, v: &toml::Value) -> Result<(), String> {
        if !matches!(v, toml::Value::Integer(_)) {
            return Ok(());
        }
        self.fits_with(self.deserialises(), section, key, v)
    }

    /// `check_fits` with the current layers' deserialisation already known.
    fn fits_with(
        &self,
        base_ok: bool,
        section: &str,
        key: &str,
        v: &toml::Value,
    ) -> Result<(), String> {
        let toml::Value::Integer(n) = v else {
            return Ok(());
        };
        let mut t = self.table.clone();
        if let Some(toml::Value::Table(sec)) = t.get_mut(section) {
            sec.insert(key.to_string(), v.clone());
        }
        match toml::Value::Table(t).try_into::<Config>() {
            Err(e) if base_ok => {
                let why = if *n < 0 {
                    "must not be negative".to_string()
                } else {
                    format!("is out of range ({})", e.message().trim())
                };
                Err(format!("'{section}.{key}' = {n} {why}"))
            }
            _ => Ok(()),
        }
    }

    /// Deserialises and validates.
    pub fn build(self) -> Result<Config, ConfigError> {
        let cfg: Config = toml::Value::Table(self.table)
            .try_into()
            .map_err(|e: toml::de::Error| ConfigError::invalid(e.message().trim().to_string()))?;
        cfg.validate()?;
        Ok(cfg)
    }
}

/// Parses a GC axis key's value the way deserialisation will, so that the error names the key.
fn check_axis_value(key: &str, v: &toml::Value) -> Result<(), String> {
    use crate::gc::{migration::Migration, planes::Planes, preempt, when};
    let text = match v {
        toml::Value::String(s) => s.clone(),
        toml::Value::Boolean(b) => b.to_string(),
        other => return Err(format!("must be a string, not {}", toml_kind(other))),
    };
    match key {
        "when" => text.parse::<AxisSetting<when::When>>().map(drop),
        "collect" => text.parse::<AxisSetting<when::Collect>>().map(drop),
        "preempt" => text.parse::<AxisSetting<preempt::PreemptMode>>().map(drop),
        "merge" | "pipeline" => text.parse::<AxisSetting<Toggle>>().map(drop),
        "suspend" => text.parse::<AxisSetting<preempt::Suspend>>().map(drop),
        "planes" => text.parse::<AxisSetting<Planes>>().map(drop),
        "migration" => text.parse::<AxisSetting<Migration>>().map(drop),
        _ => Ok(()),
    }
}

/// `array.disks` is an array of arrays of disk numbers (non-negative integers).
fn check_disks(v: &toml::Value) -> Result<(), String> {
    let bad = || {
        "'array.disks' must be an array of arrays of disk numbers, one per drive (e.g. [[0, 1], [2, 5], [3, 4]])".to_string()
    };
    let toml::Value::Array(drives) = v else {
        return Err(bad());
    };
    for d in drives {
        let toml::Value::Array(disks) = d else {
            return Err(bad());
        };
        if !disks
            .iter()
            .all(|x| matches!(x, toml::Value::Integer(n) if *n >= 0))
        {
            return Err(bad());
        }
    }
    Ok(())
}

fn check_entry(
    known: &toml::Table,
    section: &str,
    key: &str,
    v: &toml::Value,
) -> Result<(), String> {
    let Some(expected) = known.get(key) else {
        return Err(format!(
            "unknown key '{section}.{key}' (known in [{section}]: {})",
            known.keys().cloned().collect::<Vec<_>>().join(", ")
        ));
    };
    if !compatible(section, key, expected, v) {
        let kind = if takes_unit(section, key) {
            "a number with a unit (e.g. \"25us\", \"8KiB\") or an integer"
        } else {
            toml_kind(expected)
        };
        return Err(format!(
            "'{section}.{key}' must be {kind}, not {}",
            toml_kind(v)
        ));
    }
    if let Some(r) = keywords::check(section, key, v) {
        r?;
    }
    if section == "gc" && key == "victim" {
        crate::gc::victim::VictimKind::from_toml(v)?;
    }
    if section == "array" && key == "disks" {
        check_disks(v)?;
    }
    if section == "ftl" && key == "allocation" {
        if let toml::Value::String(s) = v {
            allocation_order::parse(s)?;
        }
    }
    if section == "gc" && GC_AXIS_KEYS.contains(&key) {
        check_axis_value(key, v).map_err(|e| {
            // Axis values name their key; the on/off switches do not.
            if e.contains(&format!("gc.{key}")) {
                e
            } else {
                format!("'gc.{key}': {e}")
            }
        })?;
    }
    // Strings that carry units are checked here so that the error names the key.
    if let toml::Value::String(s) = v {
        if section == "timing" && takes_unit(section, key) {
            parse_duration(s).map_err(|e| format!("'{section}.{key}': {e}"))?;
        }
        if (section == "buffer" && key == "latency")
            || (section == "gc" && key == "long_idle")
            || (section == "host" && key == "excess_bound")
        {
            parse_duration(s).map_err(|e| format!("'{section}.{key}': {e}"))?;
        }
        if (section == "geometry" && key == "page_size")
            || (section == "buffer" && key == "size")
            || (section == "array" && key == "chunk")
        {
            parse_size(s).map_err(|e| format!("'{section}.{key}': {e}"))?;
        }
    }
    Ok(())
}
