package io.weir.testing;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.weir.internal.metrics.WeirMeter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Checks what a running instance registers and exports against the catalogue {@link WeirMeter}:
 * each {@code weir.*} meter must be an entry, with the entry's kind, unit, description and tag
 * keys, and each {@code weir_*} series scraped from {@code /metrics} must be one the catalogue
 * lists.
 */
public final class MeterCatalogue {

    private MeterCatalogue() {}

    /** A line per {@code weir.*} meter of {@code registry} that its catalogue entry does not describe; empty if all match. */
    public static List<String> mismatches(MeterRegistry registry) {
        List<String> problems = new ArrayList<>();
        for (Meter meter : registry.getMeters()) {
            Meter.Id id = meter.getId();
            if (id.getName().startsWith("weir.")) {
                Optional<WeirMeter> entry = WeirMeter.named(id.getName());
                if (entry.isEmpty()) {
                    problems.add(id.getName() + " is registered but not in the catalogue WeirMeter");
                } else {
                    problems.addAll(mismatches(id, entry.get()));
                }
            }
        }
        return problems;
    }

    /** The catalogue entries of the {@code weir.*} meters {@code registry} holds. */
    public static Set<WeirMeter> registered(MeterRegistry registry) {
        return registry.getMeters().stream()
                .map(m -> WeirMeter.named(m.getId().getName()))
                .flatMap(Optional::stream)
                .collect(Collectors.toSet());
    }

    /** The {@code weir_*} series among {@code scraped} that no catalogue entry exports. */
    public static Set<String> unknownSeries(Collection<String> scraped) {
        Set<String> unknown = new TreeSet<>();
        scraped.stream()
                .filter(n -> n.startsWith("weir_"))
                .filter(n -> !WeirMeter.allPrometheusSeries().contains(n))
                .forEach(unknown::add);
        return unknown;
    }

    private static List<String> mismatches(Meter.Id id, WeirMeter entry) {
        List<String> problems = new ArrayList<>();
        String name = id.getName();
        if (!id.getType().name().equals(entry.kind().name())) {
            problems.add(name + " is a " + id.getType() + ", the catalogue says " + entry.kind());
        }
        // A timer's unit is the registry's base time unit, whatever the catalogue says.
        if (entry.kind() != WeirMeter.Kind.TIMER
                && !Optional.ofNullable(id.getBaseUnit()).equals(entry.baseUnit())) {
            problems.add(name + " has unit " + id.getBaseUnit() + ", the catalogue says " + entry.baseUnit());
        }
        if (!entry.description().equals(id.getDescription())) {
            problems.add(name + " has description '" + id.getDescription() + "', the catalogue says '"
                    + entry.description() + "'");
        }
        Set<String> keys = id.getTags().stream().map(Tag::getKey).collect(Collectors.toCollection(TreeSet::new));
        if (!keys.equals(new TreeSet<>(entry.tags()))) {
            problems.add(name + " has tags " + keys + ", the catalogue says " + entry.tags());
        }
        return problems;
    }
}
