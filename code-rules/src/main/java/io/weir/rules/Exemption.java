package io.weir.rules;

import java.util.Objects;

/**
 * One class a module's {@code CodeRulesTest} lets break one rule, with the reason written where
 * the rule is applied: for a case the rule's remedy cannot serve (for example a public package that
 * may not use the module's internal {@code Json}). An exemption that no longer matches a violation
 * fails the check, so none outlives its reason.
 *
 * @param rule the rule's name, {@code "R1"} to {@code "R4"}
 * @param className the fully qualified name of the top-level class
 * @param reason why the rule's remedy does not apply there; not blank
 */
public record Exemption(String rule, String className, String reason) {

    public Exemption {
        Rule.valueOf(Objects.requireNonNull(rule, "rule"));
        Objects.requireNonNull(className, "className");
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("an exemption from " + rule + " for " + className + " needs a reason");
        }
    }

    boolean covers(Violation v) {
        return v.rule().name().equals(rule) && v.className().equals(className);
    }
}
