"""Tools/StackKit/ServiceTable.swift as the deployment checks read it: the one parser of
the one list of services, ports and path prefixes (scripts/check-deploy.sh and
scripts/check-kubernetes.sh import it)."""
import re


def services(path="Tools/StackKit/ServiceTable.swift"):
    """{name: (port, [prefix, ...])} for every `StackService(name:, port:, prefixes:)`."""
    table = open(path).read()
    found = {}
    for m in re.finditer(r'StackService\(\s*name:\s*"([^"]+)",\s*port:\s*(\d+),\s*prefixes:\s*\[(.*?)\]', table, re.S):
        found[m.group(1)] = (int(m.group(2)), re.findall(r'"([^"]+)"', m.group(3)))
    return found
