package io.weir.cli;

import io.weir.internal.savepoint.Manifest;
import io.weir.internal.savepoint.SavepointCatalog;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code weir savepoint prune}: deletes the savepoints a history of {@code --keep} N and
 * {@code --max-age} DURATION does not keep ({@link SavepointRetention}), printing for each what
 * becomes of it and why. With {@code --statefulset}, the savepoint the last savepoint upgrade took
 * (its {@link UpgradeMark}) is kept too. Idempotent: a second run deletes nothing more.
 */
@Command(
        name = "prune",
        description = "Deletes savepoints beyond a history of --keep N and --max-age DURATION; never the newest,"
                + " nor the one an upgrade took (with --statefulset). Says what it keeps and why.")
final class SavepointPrune implements Callable<Integer> {

    @Mixin
    AppOptions app;

    @Mixin
    RetentionOptions retention;

    @Mixin
    KubernetesOptions kubernetes;

    @Option(
            names = "--statefulset",
            paramLabel = "NAME",
            description = "the StatefulSet of the application (Kubernetes): the savepoint its upgrade annotation"
                    + " names is kept")
    String statefulSet;

    @Option(names = "--dry-run", description = "say what would be deleted, delete nothing")
    boolean dryRun;

    @Override
    public Integer call() {
        if (!retention.given()) {
            throw app.usage("give --keep N, --max-age DURATION or both");
        }
        SavepointRetention limits;
        try {
            limits = retention.retention();
        } catch (IllegalArgumentException e) {
            throw app.usage(e.getMessage());
        }
        Optional<String> upgrading = Optional.empty();
        if (statefulSet != null) {
            StatefulSetScale sts = kubernetes.statefulSet(statefulSet);
            upgrading = sts.annotation(UpgradeMark.ANNOTATION)
                    .flatMap(v -> UpgradeMark.decode(v, app.out()::println))
                    .map(UpgradeMark::savepoint);
        }
        prune(app, limits, retention, upgrading, dryRun);
        return Weir.OK;
    }

    /** Applies {@code limits} to the savepoints {@code scope} covers; prints one line per savepoint. */
    static List<SavepointRetention.Verdict> prune(
            AppOptions app,
            SavepointRetention limits,
            RetentionOptions scope,
            Optional<String> upgrading,
            boolean dryRun) {
        SavepointCatalog catalog = new SavepointCatalog(app.config());
        List<Manifest> covered =
                catalog.list().stream().filter(m -> scope.covers(m.id())).toList();
        List<SavepointRetention.Verdict> verdicts = limits.apply(covered, Instant.now(), upgrading);
        PrintWriter out = app.out();
        int deleted = 0;
        for (SavepointRetention.Verdict v : verdicts) {
            String action = v.keep() ? "keep" : dryRun ? "would delete" : "delete";
            out.printf(
                    "%-12s %-28s %-24s %s%n",
                    action,
                    v.savepoint().id(),
                    Instant.ofEpochMilli(v.savepoint().createdAt()),
                    v.reason());
            out.flush();
            if (!v.keep() && !dryRun) {
                catalog.delete(v.savepoint().id());
                deleted++;
            }
        }
        out.printf(
                "%s of %s: %d savepoint(s) %s, %d kept%n",
                dryRun ? "dry run" : "pruned",
                app.id,
                verdicts.stream().filter(v -> !v.keep()).count(),
                dryRun ? "would be deleted" : "deleted (" + deleted + ")",
                verdicts.stream().filter(SavepointRetention.Verdict::keep).count());
        out.flush();
        return verdicts;
    }
}
