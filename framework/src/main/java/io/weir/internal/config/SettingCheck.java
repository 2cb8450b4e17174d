package io.weir.internal.config;

import io.weir.errors.ConfigException;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A rule between settings, reported on {@code setting}: checked as soon as that setting has its
 * value, so it may read only that setting and those declared before it.
 *
 * @param holds   whether the values keep the rule
 * @param problem when they do not: the value and what is allowed, for the {@link ConfigException}
 */
record SettingCheck(Setting<?> setting, Predicate<SettingValues> holds, Function<SettingValues, String> problem) {

    void verify(SettingValues values) {
        if (!holds.test(values)) {
            throw new ConfigException(setting.name(), problem.apply(values));
        }
    }
}
