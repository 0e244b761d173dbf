//! `baas completions SHELL` and `baas man [--out DIR]`: shell completions and man pages,
//! generated from the same command tree as `--help` (every operation's command with its
//! flags included).

use clap::{Arg, ArgMatches, Command};
use clap_complete::Shell;

use crate::exit::Failure;

/// The `completions` and `man` commands.
pub fn commands() -> [Command; 2] {
    [
        Command::new("completions")
            .about("Print the shell completion script (e.g. `baas completions bash > ~/.local/share/bash-completion/completions/baas`)")
            .arg(
                Arg::new("shell")
                    .required(true)
                    .value_parser(clap::value_parser!(Shell))
                    .help("The shell"),
            ),
        Command::new("man")
            .about("Print the man page of baas (roff), or with --out DIR write one page per command")
            .arg(
                Arg::new("out")
                    .long("out")
                    .value_name("DIR")
                    .help("Write baas.1 and a page per command (baas-account-get-account-details.1, …) here"),
            ),
    ]
}

/// Runs `baas completions …`.
pub fn completions(args: &ArgMatches) -> Result<(), Failure> {
    let Some(shell) = args.get_one::<Shell>("shell").copied() else {
        return Err(Failure::Local("name a shell".to_owned()));
    };
    let mut cmd = crate::commands::cli();
    clap_complete::generate(shell, &mut cmd, "baas", &mut std::io::stdout());
    Ok(())
}

/// Runs `baas man …`.
pub fn man(args: &ArgMatches) -> Result<(), Failure> {
    let cmd = crate::commands::cli();
    match args.get_one::<String>("out") {
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .and_then(|()| clap_mangen::generate_to(cmd, dir))
                .map_err(|e| Failure::Local(format!("{dir}: {e}")))?;
            eprintln!("man pages written to {dir}");
            Ok(())
        }
        None => clap_mangen::Man::new(cmd)
            .render(&mut std::io::stdout())
            .map_err(|e| Failure::Local(e.to_string())),
    }
}
