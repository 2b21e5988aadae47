// The command-line contract of every command the README and docs/ name: `--help` (or `-h`) prints its usage and exits 0;
// an option it does not know, a valued option without its value, or a stray argument prints what is wrong with
// the usage and exits 2, before anything runs.

/**
 * Checks `args` against the options a command takes and returns them.
 * @param {string} usage the command's help text
 * @param {{ valued?: string[], flags?: string[], positionals?: number }} accepted valued options (`--db`),
 *   flags (`--quick`) and how many positional arguments at most
 * @param {string[]} [args] the arguments (default: this process's)
 * @returns {{ values: Record<string, string>, flags: Set<string>, positionals: string[] }}
 * @example const { values } = commandLine(USAGE, { valued: ["--db"] }); // `--db path`
 */
export function commandLine(
  usage,
  { valued = [], flags = [], positionals: most = 0 } = {},
  args = process.argv.slice(2),
) {
  if (args.includes("--help") || args.includes("-h")) {
    console.log(usage);
    process.exit(0);
  }
  const fail = (message) => {
    console.error(`${message}\n\n${usage}`);
    process.exit(2);
  };
  const result = { values: {}, flags: new Set(), positionals: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (valued.includes(arg)) {
      const value = args[i + 1];
      if (value === undefined || value.startsWith("--")) fail(`${arg} needs a value`);
      result.values[arg] = value;
      i++;
    } else if (flags.includes(arg)) result.flags.add(arg);
    // a lone `-` is a positional: standard input, as commands take it
    else if ((arg.startsWith("-") && arg !== "-") || result.positionals.length >= most)
      fail(`unknown ${arg.startsWith("-") ? "option" : "argument"} ${arg}`);
    else result.positionals.push(arg);
  }
  return result;
}
