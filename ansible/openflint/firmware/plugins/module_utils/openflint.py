# -*- coding: utf-8 -*-
# openflint: runs the openflint tools with --json and checks the contract's version (docs/json.md).
# The modules never read the tools' human output: every fact comes from a JSON document.
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os

# The major version of the tools' JSON contract these modules understand (docs/json.md,
# "json_version"). A document of another version is refused rather than misread.
JSON_VERSION = 1

# Exit codes of the tools (cli/ExitCode.h; the README's table), the ones the modules act on:
# 1 is a "no" answer that still carries a document, 3 a bad image (a query still reports the
# device), 7 a question answered "no" (a check-mode preview).
EXIT_NO = 1
EXIT_BAD_INPUT = 3
EXIT_DECLINED = 7


class ToolError(Exception):
    """A tool failed: its error document (or what it printed instead) and exit code."""

    def __init__(self, message, rc=None, document=None, cmd=None, stderr=None):
        super(ToolError, self).__init__(message)
        self.rc = rc
        self.document = document
        self.cmd = cmd
        self.stderr = stderr

    def as_result(self):
        out = {'msg': str(self), 'rc': self.rc, 'cmd': self.cmd}
        if self.document is not None:
            out['tool_document'] = self.document
        if self.stderr:
            out['stderr'] = self.stderr
        return out


def common_argument_spec():
    """Options every module takes: where the tools are and the PCI sysfs root."""
    return dict(
        bin_dir=dict(type='path'),
        sysfs=dict(type='path'),
    )


def tool_path(module, name):
    """The tool `name`: in bin_dir when given, else on PATH."""
    bin_dir = module.params.get('bin_dir')
    if bin_dir:
        path = os.path.join(bin_dir, name)
        if not os.access(path, os.X_OK):
            module.fail_json(msg='%s not found or not executable in bin_dir %s' % (name, bin_dir))
        return path
    return module.get_bin_path(name, required=True)


def parse_document(text):
    """The JSON document a tool printed on stdout, or None when it printed none."""
    text = text.strip()
    if not text:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def run_json(module, tool, args, accept_rc=(0,)):
    """Runs `tool args... --json`; returns (rc, document). Raises ToolError when the tool fails,
    prints no document, or speaks another version of the contract."""
    cmd = [tool_path(module, tool)] + list(args) + ['--json']
    env = {}
    if module.params.get('sysfs'):
        env['OPENFLINT_SYSFS_ROOT'] = module.params['sysfs']
    rc, out, err = module.run_command(cmd, environ_update=env)
    doc = parse_document(out)
    if doc is None:
        raise ToolError('%s printed no JSON document (exit %d): %s' % (tool, rc, err.strip()),
                        rc=rc, cmd=cmd, stderr=err)
    if isinstance(doc, dict) and doc.get('json_version') != JSON_VERSION:
        raise ToolError('%s speaks JSON contract version %s; this collection needs %d (docs/json.md)'
                        % (tool, doc.get('json_version'), JSON_VERSION), rc=rc, document=doc, cmd=cmd)
    if rc not in accept_rc:
        message = doc.get('error', {}).get('message') if isinstance(doc, dict) else None
        raise ToolError('%s failed (exit %d): %s' % (tool, rc, message or err.strip()),
                        rc=rc, document=doc, cmd=cmd, stderr=err)
    return rc, doc


def listed_devices(module):
    """The devices `mst status --json` lists on this host (their MST names)."""
    _rc, doc = run_json(module, 'mst', ['status'])
    names = []
    for function in doc.get('pci') or []:
        name = function.get('mst_name') or function.get('bdf')
        if name:
            names.append(name)
    return names


def device_summary(doc):
    """The facts of one `flint -d DEV query --json` document: format, flash and running FW, PSID, identity."""
    device = doc.get('device') or {}
    running = doc.get('running') or {}
    flash = doc.get('flash') or {}
    return {
        'ok': bool(doc.get('ok')),
        'model': device.get('name'),
        'part_number': device.get('part_number'),
        'hw_id': device.get('hw_id'),
        'format': doc.get('image_type'),
        'flash_fw_version': doc.get('fw_version'),
        'running_fw_version': running.get('fw_version'),
        'running_psid': running.get('psid'),
        'recovery': running.get('recovery'),
        'psid': doc.get('psid'),
        'release_date': doc.get('release_date'),
        'description': doc.get('description'),
        'flash_chip': flash.get('chip'),
        'flash_size': flash.get('size'),
        'identity': {
            'base_guid': doc.get('base_guid'),
            'base_mac': doc.get('base_mac'),
            'vsd': doc.get('device_vsd') or doc.get('image_vsd'),
        },
        'error': (doc.get('error') or {}).get('message'),
    }


def query_device(module, device):
    """(summary, document) of `flint -d DEVICE query --json`; a flash without a valid image is a
    summary with ok false (exit 3 still carries device, flash, running), any other failure raises."""
    rc, doc = run_json(module, 'flint', ['-d', device, 'query'], accept_rc=(0, EXIT_BAD_INPUT))
    if rc != 0 and not doc.get('device'):
        raise ToolError('flint -d %s query failed: %s' % (device, (doc.get('error') or {}).get('message')),
                        rc=rc, document=doc)
    summary = device_summary(doc)
    summary['name'] = device
    return summary, doc


def package_kind(path):
    """'MFA archive' or 'MFA2 package' by the file's first bytes (image/FirmwarePackage), else None."""
    try:
        with open(path, 'rb') as f:
            head = f.read(16)
    except (IOError, OSError):
        return None
    if head == b'MLNX.MFA2.XZ.00!':
        return 'MFA2 package'
    if head[:4] == b'MFAR':
        return 'MFA archive'
    return None
