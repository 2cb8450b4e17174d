package io.weir.cli;

import io.weir.Topology;
import java.io.File;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import picocli.CommandLine.Option;

/**
 * Where a command gets the application's topology from: a class of the application, on the CLI's
 * class path or on {@code --classpath}, that either implements {@code Supplier<Topology>} (with a
 * public no-argument constructor) or has a {@code public static Topology topology()} method.
 */
final class TopologyOptions {

    @Option(names = "--topology", paramLabel = "CLASS", required = true,
            description = "class of the application giving its topology: a Supplier<Topology>, or a class with"
                    + " public static Topology topology()")
    String className;

    @Option(names = "--classpath", paramLabel = "PATH", split = ":",
            description = "jars or directories holding the application's classes")
    List<File> classpath = new ArrayList<>();

    /**
     * Loads and builds the topology.
     *
     * @throws CommandFailedException naming the class and what is wrong with it
     */
    Topology load() {
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
