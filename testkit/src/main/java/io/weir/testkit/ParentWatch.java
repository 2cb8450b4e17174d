package io.weir.testkit;

import io.weir.common.internal.Worker;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;

/**
 * Entry point of every {@link ChildJvm}: halts the child when its parent process is gone, then
 * runs the real main class. A JVM shutdown hook in the parent covers a normal exit; this covers
 * a parent that is SIGKILLed (a Maven build stopped with kill -9, a crashed IDE), whose hooks
 * never run, so that no broker or application keeps running and holding ports.
 *
 * <p>Arguments: the real main class, then its arguments. The parent pid comes from the system
 * property {@value #PARENT_PID_PROPERTY}.
 */
final class ParentWatch {

    static final String PARENT_PID_PROPERTY = "weir.testkit.parentPid";
    private static final Duration POLL = Duration.ofMillis(200);

    private ParentWatch() {}

    public static void main(String[] args) throws Throwable {
        watchParent(Long.getLong(PARENT_PID_PROPERTY, -1));
        Class<?> mainClass = Class.forName(args[0], false, ClassLoader.getSystemClassLoader());
        Method main = mainClass.getDeclaredMethod("main", String[].class);
        main.setAccessible(true); // a test's main class is often package-private
        try {
            main.invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
        } catch (InvocationTargetException e) {
            throw e.getCause(); // exit as the real main would have: stack trace, exit code 1
        }
    }

    private static void watchParent(long pid) {
        if (pid < 0) {
            return;
        }
        Optional<ProcessHandle> parent = ProcessHandle.of(pid);
        if (parent.isEmpty() || !parent.get().isAlive()) {
            Runtime.getRuntime().halt(137);
        }
        // Own polling worker: ProcessHandle.onExit() of a non-child process is polled by the JDK
        // with a back-off of several seconds. halt, not exit: no shutdown work of the child (which
        // may hang without its parent) should delay the stop. A daemon, as workers are: it never
        // keeps the child up, and it runs as long as the child.
        ProcessHandle handle = parent.get();
        Worker.every("weir-testkit-parent-watch", POLL, self -> {
            if (!handle.isAlive()) {
                Runtime.getRuntime().halt(137);
            }
        });
    }
}
