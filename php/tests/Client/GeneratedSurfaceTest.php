<?php

declare(strict_types=1);

namespace Baas\Runtime\Tests\Client;

use Baas\Client\Client;
use Baas\Runtime\Config;
use Baas\Runtime\Decimal;
use Baas\Runtime\Document;
use Baas\Runtime\Exception\InvalidRequest;
use Baas\Runtime\FieldPath;
use Baas\Runtime\Json;
use Baas\Runtime\PagedRequest;
use Baas\Runtime\Request;
use Baas\Runtime\Testing\MockService;
use Baas\Runtime\UnknownValue;
use Baas\Runtime\Validator;
use Baas\Signing\Canonical;
use Baas\Signing\JsonObject;
use Baas\Signing\PrivateKey;
use PHPUnit\Framework\TestCase;

/**
 * Every generated class, exercised: PHP compiles a typo in a method call only when the line
 * runs, so each request is built with a value in every field (lists of one item, records
 * filled in), validated, written, signed and sent through MockService, its answer read; each
 * received class reads a value in every member; each paged request pages.
 */
final class GeneratedSurfaceTest extends TestCase
{
    /** @return list<class-string> */
    private static function classes(string $suffix): array
    {
        $root = dirname(__DIR__, 3) . '/generated/php/src';
        $out = [];
        foreach (new \RecursiveIteratorIterator(new \RecursiveDirectoryIterator($root, \FilesystemIterator::SKIP_DOTS)) as $file) {
            $class = 'Baas\\Client\\' . str_replace('/', '\\', substr((string) $file, strlen($root) + 1, -4));
            if (str_ends_with($class, $suffix)) {
                $out[] = $class;
            }
        }
        sort($out);
        return $out;
    }

    /** The item type a docblock gives a list parameter (`list<OrderItem>`), resolved. */
    private static function listItem(\ReflectionParameter $p): string
    {
        $doc = (string) $p->getDeclaringFunction()->getDocComment();
        self::assertSame(1, preg_match('/@param (?:list<(.+?)>)(?:\|null)? \$' . $p->getName() . '\b/', $doc, $m), 'no list type for $' . $p->getName());
        return self::resolve($m[1]);
    }

    private static function resolve(string $short): string
    {
        $short = explode('|', $short)[0];
        if (in_array($short, ['string', 'int', 'bool', 'mixed'], true)) {
            return $short;
        }
        foreach (['Baas\\Client\\Records\\', 'Baas\\Client\\Enums\\', 'Baas\\Runtime\\'] as $ns) {
            if (class_exists($ns . $short) || enum_exists($ns . $short)) {
                return $ns . $short;
            }
        }
        self::fail('cannot resolve ' . $short);
    }

    /** A sent value of a type. */
    private static function sample(string $type, \ReflectionParameter $p, int $depth = 0): mixed
    {
        return match (true) {
            $type === 'string' => 'A1',
            $type === 'int' => 1,
            $type === 'bool' => true,
            $type === 'mixed' => ['k' => 'v'],
            $type === 'array' => [self::sample(self::listItem($p), $p, $depth)],
            $type === Decimal::class => Decimal::of('1.00'),
            $type === \DateTimeImmutable::class => new \DateTimeImmutable('2026-11-27'),
            $type === Document::class => Document::fromBytes("%PDF-1.7\n\x00\xff"),
            enum_exists($type) => $type::cases()[0],
            class_exists($type) => self::build($type, $depth + 1),
            default => self::fail("no sample of $type"),
        };
    }

    /** An instance of a sent class with every parameter given. */
    private static function build(string $class, int $depth = 0): object
    {
        self::assertLessThan(8, $depth, 'records nest too deep');
        $args = [];
        foreach ((new \ReflectionMethod($class, '__construct'))->getParameters() as $p) {
            $type = $p->getType();
            $name = match (true) {
                $type instanceof \ReflectionNamedType => $type->getName(),
                // An open value set's `TxType|string`: given a case.
                $type instanceof \ReflectionUnionType => array_values(array_filter(
                    array_map(static fn (\ReflectionNamedType $t): string => $t->getName(), $type->getTypes()),
                    static fn (string $n): bool => enum_exists($n),
                ))[0] ?? 'mixed',
                default => 'mixed',
            };
            if ($p->getName() === 'params' && !$type instanceof \ReflectionNamedType) {
                $args['params'] = ['free' => 'x'];
                continue;
            }
            $args[$p->getName()] = self::sample($name, $p, $depth);
        }
        return new $class(...$args);
    }

    public function testEveryRequestValidatesWritesSignsAndIsAnsweredThroughTheClient(): void
    {
        $key = new PrivateKey('surface-key');
        $mock = new MockService($key);
        $client = new Client(new Config('https://baas.example.com', 'partner1', $key, maxRetries: 0), $mock);
        $requests = array_values(array_filter(self::classes('Request'), static fn (string $c): bool => is_subclass_of($c, Request::class)));
        self::assertGreaterThanOrEqual(50, count($requests));
        $tried = 0;
        $answered = 0;
        foreach ($requests as $class) {
            $request = self::build($class);
            self::assertInstanceOf(Request::class, $request);
            $v = new Validator();
            $request->validate($v, FieldPath::root());
            $body = Json::encode($request->toWire());
            Canonical::parseForSigning($body);
            $mock->on($class, fn (JsonObject $p): array => []);
            $tried++;
            try {
                $answer = $client->send($request);
                self::assertTrue($answer === null || is_object($answer) || $answer instanceof JsonObject, $class);
            } catch (InvalidRequest $e) {
                // Sample values may break a rule (a checked length, a constraint); that is named.
                self::assertNotEmpty($e->violations, $class);
                continue;
            }
            $sent = $mock->requestsOf($class);
            self::assertNotEmpty($sent, $class . ' was not sent');
            // The service received exactly the params written (order, text, numbers' literals).
            self::assertSame($body, Json::encode(end($sent)->params), $class);
            $answered++;
            if ($request instanceof PagedRequest) {
                $next = $request->withPage($request->page() + 1);
                self::assertSame($request->page() + 1, $next->page(), $class);
                self::assertSame([], $request->pageItems($request->decodeResponse(new JsonObject(new \Baas\Signing\KeyIndex(), []))), $class);
            }
        }
        // Most samples pass every rule: the check above is no formality.
        self::assertGreaterThan((int) ($tried * 0.8), $answered, "$answered of $tried requests answered");
    }

    /** A received JSON value for a declared type (the docblock gives list items). */
    private static function wire(string $type, \ReflectionParameter $p, int $depth): string
    {
        $type = ltrim(str_replace(['|null', '?'], '', $type), '\\');
        if (str_contains($type, 'UnknownValue')) {
            $type = explode('|', $type)[0];
        }
        return match (true) {
            $type === 'string' => '"t"',
            $type === 'int' => '"7"',
            $type === 'bool' => 'true',
            $type === 'mixed' => '{"any":1}',
            $type === 'array' => '[' . self::wire(self::listItem($p), $p, $depth) . ']',
            $type === Decimal::class => '100.50',
            $type === \DateTimeImmutable::class => '"2026-11-27"',
            enum_exists($type) => json_encode($type::cases()[0]->value),
            class_exists($type) => self::object($type, $depth + 1),
            default => self::fail("no wire value of $type"),
        };
    }

    private static function object(string $class, int $depth): string
    {
        if ($depth > 6) {
            return '{}';
        }
        $members = [];
        foreach ((new \ReflectionMethod($class, '__construct'))->getParameters() as $p) {
            $members[] = json_encode($p->getName()) . ':' . self::wire((string) $p->getType(), $p, $depth);
        }
        return '{' . implode(',', $members) . '}';
    }

    public function testEveryReceivedClassReadsEveryMember(): void
    {
        $received = array_filter(
            array_merge(self::classes('Response'), self::classes('')),
            static fn (string $c): bool => class_exists($c) && method_exists($c, 'read'),
        );
        $received = array_values(array_unique($received));
        self::assertGreaterThanOrEqual(50, count($received));
        foreach ($received as $class) {
            $value = Canonical::parseLoose(self::object($class, 0))->value();
            $read = $class::read($value, '');
            self::assertInstanceOf($class, $read);
            foreach ((new \ReflectionMethod($class, '__construct'))->getParameters() as $p) {
                $got = $read->{$p->getName()};
                self::assertNotNull($got, "$class::\${$p->getName()} was not read");
                self::assertNotInstanceOf(UnknownValue::class, $got, "$class::\${$p->getName()}: a listed value read as unknown");
            }
            self::assertInstanceOf($class, $class::read(Canonical::parse('{"addedLater":[1,{"x":null}]}')->value(), ''));
        }
    }
}
