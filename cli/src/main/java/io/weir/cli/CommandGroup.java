package io.weir.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** A command that only holds subcommands ({@code weir topics}, {@code weir acls}...): alone, it prints its usage as a usage error. */
abstract class CommandGroup implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return Weir.USAGE;
    }
}
