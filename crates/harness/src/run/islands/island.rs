//! Which island a process is, and each island's seed.

use rand::Rng;

use checkers_engine::error::{Error, Result};
use checkers_engine::rng::{stream, tag};

/// One island of a run of `count` islands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Island {
    /// `0..count`.
    pub index: u32,
    /// Islands in the run.
    pub count: u32,
}

impl Island {
    /// Every island of a run of `count` islands.
    pub fn all(count: u32) -> impl Iterator<Item = Island> {
        (0..count).map(move |index| Island { index, count })
    }

    /// The seed of this island's streams: the run's seed for island 0 (so island 0 starts as
    /// the run without islands does), a seed drawn from `[ISLAND, index]` for the others.
    pub fn seed(self, run_seed: u64) -> u64 {
        if self.index == 0 {
            run_seed
        } else {
            stream(run_seed, &[tag::ISLAND, u64::from(self.index)]).gen()
        }
    }

    /// The island whose migrants this one receives (its predecessor on the ring).
    pub fn sender(self) -> u32 {
        (self.index + self.count - 1) % self.count
    }
}

/// Which island a process runs, as given on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IslandChoice {
    /// From the scheduler's environment: `SLURM_PROCID` and `SLURM_NTASKS` (a task of `srun`),
    /// or `JOB_COMPLETION_INDEX` (a pod of a Kubernetes Indexed Job).
    Auto,
    /// This index.
    Index(u32),
}

impl std::str::FromStr for IslandChoice {
    type Err = String;

    fn from_str(text: &str) -> std::result::Result<Self, Self::Err> {
        if text == "auto" {
            return Ok(IslandChoice::Auto);
        }
        text.parse()
            .map(IslandChoice::Index)
            .map_err(|_| format!("expected `auto` or an island index (0, 1, …), got {text:?}"))
    }
}

impl IslandChoice {
    /// The island of a run of `count` islands that this choice names, reading the scheduler's
    /// variables through `env`. Bad input when the index is out of range, the scheduler's task
    /// count disagrees with `count`, or `auto` finds no scheduler.
    pub fn resolve(self, count: u32, env: impl Fn(&str) -> Option<String>) -> Result<Island> {
        if count < 2 {
            return Err(Error::input(
                "--island: the config has one island; set `[islands] count` to 2 or more to run \
                 islands as separate processes",
            ));
        }
        let number = |var: &str| -> Result<Option<u32>> {
            let parse = |text: String| {
                let message = format!("--island auto: {var}={text:?} is not a task index or count");
                text.trim().parse().map_err(|_| Error::input(message))
            };
            env(var).map(parse).transpose()
        };
        let (index, source) = match self {
            IslandChoice::Index(index) => (index, "--island".to_string()),
            IslandChoice::Auto => match (number("SLURM_PROCID")?, number("SLURM_NTASKS")?) {
                (Some(index), Some(tasks)) => {
                    if tasks != count {
                        return Err(Error::input(format!(
                            "--island auto: SLURM_NTASKS is {tasks}, but the config's \
                             `islands.count` is {count}; start one task per island (srun \
                             --ntasks={count})"
                        )));
                    }
                    (index, "SLURM_PROCID".to_string())
                }
                _ => match number("JOB_COMPLETION_INDEX")? {
                    Some(index) => (index, "JOB_COMPLETION_INDEX".to_string()),
                    None => {
                        return Err(Error::input(
                            "--island auto: neither SLURM_PROCID and SLURM_NTASKS (srun) nor \
                             JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) is set; give the \
                             island's index, --island I",
                        ))
                    }
                },
            },
        };
        if index >= count {
            return Err(Error::input(format!(
                "{source} is {index}, but the config's `islands.count` is {count}: islands are \
                 0 to {}",
                count - 1
            )));
        }
        Ok(Island { index, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn the_island_comes_from_slurm_or_kubernetes_and_must_agree_with_the_count() {
        let slurm = [("SLURM_PROCID", "2"), ("SLURM_NTASKS", "3")];
        let island = IslandChoice::Auto.resolve(3, env(&slurm)).unwrap();
        assert_eq!(island, Island { index: 2, count: 3 });
        assert_eq!(island.sender(), 1);
        let err = IslandChoice::Auto.resolve(4, env(&slurm)).unwrap_err();
        assert!(err.to_string().contains("SLURM_NTASKS is 3"), "{err}");
        assert_eq!(err.exit_code(), 2);
        let k8s = [("JOB_COMPLETION_INDEX", "0")];
        assert_eq!(IslandChoice::Auto.resolve(2, env(&k8s)).unwrap().index, 0);
        let err = IslandChoice::Auto
            .resolve(2, env(&[("JOB_COMPLETION_INDEX", "5")]))
            .unwrap_err();
        assert!(
            err.to_string().contains("JOB_COMPLETION_INDEX is 5"),
            "{err}"
        );
        let err = IslandChoice::Auto.resolve(2, env(&[])).unwrap_err();
        assert!(err.to_string().contains("--island I"), "{err}");
        let err = IslandChoice::Index(0).resolve(1, env(&[])).unwrap_err();
        assert!(err.to_string().contains("one island"), "{err}");
        assert!("x".parse::<IslandChoice>().is_err());
        assert_eq!("auto".parse(), Ok(IslandChoice::Auto));
    }

    #[test]
    fn island_zero_keeps_the_run_seed_and_the_others_differ() {
        let island = |index| Island { index, count: 3 };
        assert_eq!(island(0).seed(7), 7);
        assert_ne!(island(1).seed(7), island(2).seed(7));
        assert_eq!(island(1).seed(7), island(1).seed(7));
    }
}
