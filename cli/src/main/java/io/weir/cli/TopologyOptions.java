package io.weir.cli;

import io.weir.Topology;
import io.weir.internal.config.WeirVersion;
import io.weir.internal.topology.DescribedModel;
import io.weir.internal.topology.TopologyAccess;
import io.weir.internal.topology.TopologyDescription;
import io.weir.internal.topology.TopologyModel;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Where a command gets the application's topology from: a class of the application, on the CLI's
 * class path or on {@code --classpath}, that either implements {@code Supplier<Topology>} (with a
 * public no-argument constructor) or has a {@code public static Topology topology()} method; or,
 * for the commands that need only its shape ({@link #model}, {@link #description}: {@code topology
 * diff}, {@code savepoint restore}, {@code upgrade}), the topology's description in a file
 * ({@code --topology-file}): what the application writes when started with
 * {@code run.mode=describe}, or what {@code weir topology show} prints. The file lets a CLI that
 * does not hold the application's classes (another image) work on it.
 */
final class TopologyOptions {

    @Option(
            names = "--topology",
            paramLabel = "CLASS",
            description = "class of the application giving its topology: a Supplier<Topology>, or a class with"
                    + " public static Topology topology()")
    String className;

    @Option(
            names = "--topology-file",
            paramLabel = "FILE",
            description = "instead of --topology: the topology's description (JSON), as the application writes it"
                    + " with run.mode=describe (WEIR_RUN_MODE=describe) or weir topology show prints it")
    Path file;

    /** The command this is part of (as a mixin or an argument group), for usage errors. */
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Option(
            names = "--classpath",
            paramLabel = "PATH",
            split = ":",
            description = "jars or directories holding the application's classes")
    List<File> classpath = new ArrayList<>();

    /**
     * Loads and builds the topology.
     *
     * @throws CommandFailedException naming the class and what is wrong with it
     */
    Topology load() {
        if (file != null) {
            throw usage("this command needs the topology's code: give --topology CLASS (--topology-file serves"
                    + " topology diff, savepoint restore and upgrade)");
        }
        requireOne();
        Class<?> type;
        try {
            type = Class.forName(className, true, classLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new CommandFailedException("cannot load the topology class " + className
                    + (classpath.isEmpty() ? " (no --classpath given)" : " from --classpath " + classpath) + ": " + e);
        }
        try {
            if (Supplier.class.isAssignableFrom(type)) {
                Object topology = ((Supplier<?>) type.getConstructor().newInstance()).get();
                if (topology instanceof Topology t) {
                    return t;
                }
                throw new CommandFailedException(className + ".get() returned " + topology + ", not a Topology");
            }
            Method m = type.getMethod("topology");
            if (Modifier.isStatic(m.getModifiers()) && Topology.class.isAssignableFrom(m.getReturnType())) {
                return (Topology) m.invoke(null);
            }
        } catch (NoSuchMethodException e) {
            // falls through to the message below
        } catch (ReflectiveOperationException | RuntimeException e) {
            if (e instanceof CommandFailedException f) {
                throw f;
            }
            Throwable cause = e instanceof java.lang.reflect.InvocationTargetException i ? i.getCause() : e;
            throw new CommandFailedException("building the topology with " + className + " failed: " + cause, cause);
        }
        throw new CommandFailedException(className + " neither implements Supplier<Topology> with a public"
                + " no-argument constructor nor has a method public static Topology topology()");
    }

    /**
     * The topology's shape for application {@code applicationId}, from the class or the file; from
     * a file it cannot run ({@link DescribedModel}).
     *
     * @throws CommandFailedException if the class cannot build it or the file is not a description
     */
    TopologyModel model(String applicationId) {
        requireOne();
        return file != null
                ? DescribedModel.of(readFile(), applicationId)
                : TopologyAccess.model(load(), applicationId);
    }

    /**
     * The topology's description for application {@code applicationId}; from a file written for
     * another application, with its repartition topics renamed.
     */
    TopologyDescription description(String applicationId) {
        requireOne();
        if (file == null) {
            return TopologyDescription.of(
                    TopologyAccess.model(load(), applicationId), applicationId, WeirVersion.current());
        }
        TopologyDescription d = readFile();
        // A description written for the same application is used as written, Weir version included.
        return d.applicationId().equals(applicationId)
                ? d
                : TopologyDescription.of(DescribedModel.of(d, applicationId), applicationId, d.weirVersion());
    }

    /** What the options name, for messages. */
    String source() {
        return file != null ? "--topology-file " + file : "--topology " + className;
    }

    private TopologyDescription readFile() {
        String json;
        try {
            json = Files.readString(file);
        } catch (IOException | RuntimeException e) {
            throw new CommandFailedException("cannot read --topology-file " + file + ": " + e);
        }
        try {
            TopologyDescription d = TopologyDescription.parse(json);
            DescribedModel.of(d, d.applicationId()); // a description it cannot rebuild fails here, naming the file
            return d;
        } catch (IllegalArgumentException e) {
            throw new CommandFailedException("--topology-file " + file + ": " + e.getMessage());
        }
    }

    private void requireOne() {
        if (file != null && className != null) {
            throw usage("give --topology CLASS or --topology-file FILE, not both");
        }
        if (file == null && className == null) {
            throw usage("give the topology: --topology CLASS or --topology-file FILE");
        }
        if (file != null && !classpath.isEmpty()) {
            throw usage("--classpath goes with --topology CLASS; --topology-file needs no classes");
        }
    }

    private RuntimeException usage(String message) {
        if (command != null) {
            return new picocli.CommandLine.ParameterException(command.commandLine(), message);
        }
        return new CommandFailedException(message);
    }

    private ClassLoader classLoader() {
        if (classpath.isEmpty()) {
            return TopologyOptions.class.getClassLoader();
        }
        List<URL> urls = new ArrayList<>();
        for (File f : classpath) {
            if (!f.exists()) {
                throw new CommandFailedException("--classpath entry " + f + " does not exist");
            }
            try {
                urls.add(f.toURI().toURL());
            } catch (MalformedURLException e) {
                throw new CommandFailedException("--classpath entry " + f + ": " + e.getMessage());
            }
        }
        return new URLClassLoader(urls.toArray(URL[]::new), TopologyOptions.class.getClassLoader());
    }
}
