use super::*;

/// A command line as the tests give it: flags only, so the process's
/// environment (which clap also reads) is overridden for every
/// variable the test looks at.
fn cli(args: &[&str]) -> Result<Cli, clap::Error> {
    Cli::try_load_from(std::iter::once("server").chain(args.iter().copied()))
}

#[test]
fn the_configuration_comes_before_the_command_and_its_arguments() {
    use crate::cli::commands::Command;
    let c = cli(&["seed", "--db", "sqlite://x.db", "--advisors", "10"]).unwrap();
    let Some(Command::Seed(seed)) = c.command else {
        panic!("seed");
    };
    assert_eq!(
        (seed.db.as_deref(), seed.advisors),
        (Some("sqlite://x.db"), 10)
    );
    let c = cli(&[
        "--chat-turns-per-minute",
        "7",
        "import",
        "a.csv",
        "--dry-run",
    ])
    .unwrap();
    assert_eq!(c.config.chat_turns_per_minute, 7);
    assert!(c.config.is_given("CHAT_TURNS_PER_MINUTE"));
    let Some(Command::Import(import)) = c.command else {
        panic!("import");
    };
    assert!(import.dry_run && import.file == "a.csv");
    assert!(cli(&[]).unwrap().command.is_none());
}

#[test]
fn malformed_values_are_refused_in_chinese_naming_the_variable() {
    for (flag, value, name) in [
        ("--demo-data", "maybe", "DEMO_DATA"),
        (
            "--database-max-connections",
            "0",
            "DATABASE_MAX_CONNECTIONS",
        ),
        ("--chat-turns-per-minute", "-3", "CHAT_TURNS_PER_MINUTE"),
        ("--trusted-proxies", "proxy.example", "TRUSTED_PROXIES"),
        ("--log-format", "xml", "LOG_FORMAT"),
        ("--metrics", "sometimes", "METRICS"),
        ("--shutdown-grace-secs", "soon", "SHUTDOWN_GRACE_SECS"),
        ("--asr-base-url", "whisper.local", "ASR_BASE_URL"),
        ("--asr-timeout-secs", "0", "ASR_TIMEOUT_SECS"),
        (
            "--transcriptions-per-minute",
            "many",
            "TRANSCRIPTIONS_PER_MINUTE",
        ),
    ] {
        let arg = format!("{flag}={value}");
        let Err(e) = cli(&[&arg]) else {
            panic!("{flag} {value} was accepted");
        };
        assert_eq!(e.kind(), clap::error::ErrorKind::ValueValidation);
        let why = std::error::Error::source(&e).unwrap().to_string();
        assert!(why.contains(name) && why.contains(value), "{why}");
    }
    let Err(e) = cli(&["--metrics-addr", "nowhere"]) else {
        panic!("a bad METRICS_ADDR was accepted");
    };
    assert!(std::error::Error::source(&e)
        .unwrap()
        .to_string()
        .contains("监听地址"));
}

#[test]
fn values_become_the_settings_they_stand_for() {
    let c = cli(&[
        "--trusted-proxies=127.0.0.1,10.0.0.0/8",
        "--admin-token= secret ",
        "--metrics=on",
        "--demo-data=OFF",
        "--log-format=json",
        "--shutdown-grace-secs=3",
    ])
    .unwrap()
    .config;
    let s = c.http_settings();
    assert_eq!(
        s.proxies,
        TrustedProxies::parse("127.0.0.1,10.0.0.0/8").unwrap()
    );
    assert_eq!(s.admin_token, AdminToken::new(Some("secret")));
    assert!(s.metrics);
    assert_eq!(c.demo_data, Seeding::CatalogOnly);
    assert_eq!(c.log_format, LogFormat::Json);
    assert_eq!(c.shutdown_grace(), Duration::from_secs(3));
    if !c.is_given("ASR_BASE_URL") {
        assert_eq!(s.asr, None);
    }
    let c = cli(&[
        "--asr-base-url=http://127.0.0.1:8090/v1/",
        "--asr-model=small",
        "--asr-timeout-secs=4",
        "--asr-api-key= ",
    ])
    .unwrap()
    .config;
    let asr = c.http_settings().asr.unwrap();
    assert_eq!(
        asr.endpoint(),
        "http://127.0.0.1:8090/v1/audio/transcriptions"
    );
    assert_eq!(asr.model, "small");
    assert_eq!(asr.api_key, None);
    assert_eq!(asr.timeout, Duration::from_secs(4));
    // METRICS_ADDR takes /metrics off the site's address.
    let c = cli(&["--metrics=on", "--metrics-addr=127.0.0.1:9100"])
        .unwrap()
        .config;
    assert!(!c.http_settings().metrics && c.metrics_on());
}

#[test]
fn only_the_llm_variables_given_count() {
    let c = cli(&["--llm-timeout-secs=9"]).unwrap().config;
    if !["LLM_BASE_URL", "LLM_API_KEY", "LLM_MODEL"]
        .iter()
        .any(|k| c.is_given(k))
    {
        // A timeout alone configures no model.
        assert_eq!(c.llm().unwrap(), None);
    }
    let c = cli(&[
        "--llm-base-url=http://127.0.0.1:11434/v1",
        "--llm-model=qwen2.5:7b",
        "--llm-stream=false",
        "--llm-timeout-secs=2.5",
        "--llm-api-key=",
    ])
    .unwrap()
    .config;
    let m = c.llm().unwrap().unwrap();
    assert_eq!(m.endpoint(), "http://127.0.0.1:11434/v1/chat/completions");
    assert_eq!(m.model, "qwen2.5:7b");
    assert_eq!(m.api_key, None);
    assert!(!m.stream);
    assert_eq!(m.timeout, Duration::from_millis(2500));
    let e = cli(&["--llm-model=m", "--llm-tool-mode=xml"])
        .unwrap()
        .config
        .llm()
        .unwrap_err();
    assert!(e.contains("LLM_TOOL_MODE"), "{e}");
}

/// The defaults `--help` and docs/operations.md show are the ones the model
/// client applies when a variable is not given.
#[test]
fn the_llm_defaults_shown_are_the_clients() {
    let shown = |name: &str| -> String {
        let cmd = Cli::command();
        let arg = cmd
            .get_arguments()
            .find(|a| a.get_env().is_some_and(|e| e == name))
            .unwrap_or_else(|| panic!("{name} is declared"));
        arg.get_default_values()[0].to_string_lossy().into_owned()
    };
    assert_eq!(shown("LLM_BASE_URL"), llm::DEFAULT_BASE_URL);
    assert_eq!(shown("LLM_MODEL"), llm::DEFAULT_MODEL);
    for (name, value) in [
        ("LLM_TIMEOUT_SECS", llm::DEFAULT_TIMEOUT_SECS),
        ("LLM_TURN_BUDGET_SECS", llm::DEFAULT_TURN_BUDGET_SECS),
        ("LLM_MAX_RETRIES", llm::DEFAULT_MAX_RETRIES),
        ("LLM_TEMPERATURE", llm::DEFAULT_TEMPERATURE),
        ("LLM_MAX_TOKENS", llm::DEFAULT_MAX_TOKENS),
        ("LLM_HISTORY_TOKENS", llm::DEFAULT_HISTORY_TOKENS),
    ] {
        assert_eq!(shown(name).parse::<f64>().unwrap(), value, "{name}");
    }
    assert_eq!(shown("LLM_STREAM"), llm::DEFAULT_STREAM.to_string());
    assert_eq!(shown("LLM_TOOL_MODE"), "functions");
}

#[test]
fn the_declaration_is_consistent() {
    Cli::command().debug_assert();
}
