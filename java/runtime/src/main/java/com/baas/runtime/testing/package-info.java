/**
 * For partners' tests: {@link com.baas.runtime.testing.MockService} (unit tests, no network)
 * and {@link com.baas.runtime.testing.SandboxProcess} with {@link
 * com.baas.runtime.testing.SandboxAdmin} (integration tests against the {@code baas-sandbox}
 * program on loopback).
 *
 * @serial exclude
 */
package com.baas.runtime.testing;
