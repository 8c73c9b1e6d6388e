#!/usr/bin/python
# -*- coding: utf-8 -*-
# fabric_update: updates every device of an InfiniBand fabric from a management node with ibfwmgr.
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
---
module: fabric_update
short_description: Update the firmware of every device on an InfiniBand fabric (in-band)
description:
  - Runs C(ibfwmgr update --json) on a management node. ibfwmgr discovers the fabric, picks each
    device's image by its PSID (from an MFA archive or a folder of images) and burns failsafe, in
    parallel; a device whose flash already holds the image's version is C(up-to-date) and not
    touched.
  - C(changed) is true when at least one node was updated. Check mode runs
    C(ibfwmgr update --dry-run --json), which decides every node's status (C(would-update) instead
    of a burn) and writes nothing.
  - With O(state=inventory) only C(ibfwmgr list --json) runs (never a change).
version_added: 0.1.0
author: openflint developers
extends_documentation_fragment:
  - openflint.firmware.common
options:
  state:
    description: C(updated) burns what is out of date; C(inventory) only lists the fabric.
    type: str
    choices: [updated, inventory]
    default: updated
  archive:
    description: MFA archive holding the images (one of O(archive), O(images) for C(state=updated)).
    type: path
  images:
    description: Folder of firmware images, picked by PSID.
    type: path
  reset:
    description: Reset the devices after burning (switches in-band; adapters need a PCI reset on their host).
    type: bool
    default: false
  force:
    description: Burn even when a device already has the image's version.
    type: bool
    default: false
  ca:
    description: Local CA to use (default, the first).
    type: str
  port:
    description: Local port (default, the first active).
    type: int
  fail_on_node_error:
    description: Fail when a node's update failed or no image matched its PSID.
    type: bool
    default: true
attributes:
  check_mode:
    support: full
  diff_mode:
    support: none
'''

EXAMPLES = r'''
- name: Update every switch and adapter on the fabric from one management node
  hosts: ib-mgmt
  tasks:
    - name: Fabric update from an MFA archive
      openflint.firmware.fabric_update:
        archive: /srv/firmware/fw-SwitchIB2.mfa
        reset: true
      register: fabric

    - name: Nodes that changed
      ansible.builtin.debug:
        msg: "{{ fabric.nodes | selectattr('status', 'equalto', 'updated') | map(attribute='guid') | list }}"
'''

RETURN = r'''
nodes:
  description:
    - One entry per fabric node, as C(ibfwmgr update --json) reports it (docs/json.md); C(status) is
      C(updated), C(up-to-date), C(would-update) (check mode), C(no-image), C(no-access) or C(failed).
    - With O(state=inventory), the nodes of C(ibfwmgr list --json).
  returned: always
  type: list
  elements: dict
counts:
  description: How many nodes ended in each status.
  returned: always
  type: dict
  sample: {updated: 3, up-to-date: 12, no-access: 1}
'''

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.openflint.firmware.plugins.module_utils.openflint import (
    EXIT_NO, ToolError, common_argument_spec, run_json)


def port_args(p):
    args = []
    if p['ca']:
        args += ['--ca', p['ca']]
    if p['port'] is not None:
        args += ['--port', str(p['port'])]
    return args


def main():
    spec = common_argument_spec()
    spec.update(
        state=dict(type='str', choices=['updated', 'inventory'], default='updated'),
        archive=dict(type='path'),
        images=dict(type='path'),
        reset=dict(type='bool', default=False),
        force=dict(type='bool', default=False),
        ca=dict(type='str'),
        port=dict(type='int'),
        fail_on_node_error=dict(type='bool', default=True),
    )
    module = AnsibleModule(argument_spec=spec, supports_check_mode=True,
                           mutually_exclusive=[('archive', 'images')],
                           required_if=[('state', 'updated', ('archive', 'images'), True)])
    p = module.params
    try:
        if p['state'] == 'inventory':
            _rc, doc = run_json(module, 'ibfwmgr', port_args(p) + ['list'])
            nodes = doc.get('nodes', [])
            module.exit_json(changed=False, nodes=nodes, counts={'nodes': len(nodes)})
        args = port_args(p) + ['update', '-y']
        args += ['--archive', p['archive']] if p['archive'] else ['--images', p['images']]
        if p['reset']:
            args.append('--reset')
        if p['force']:
            args.append('--force')
        if module.check_mode:
            args.append('--dry-run')
        # Exit 1 with a document: some node failed or had no image; the others are reported.
        rc, doc = run_json(module, 'ibfwmgr', args, accept_rc=(0, EXIT_NO))
    except ToolError as e:
        module.fail_json(**e.as_result())
    nodes = doc.get('nodes', [])
    counts = {}
    for node in nodes:
        counts[node.get('status')] = counts.get(node.get('status'), 0) + 1
    changed = counts.get('updated', 0) > 0 or counts.get('would-update', 0) > 0
    result = dict(changed=changed, nodes=nodes, counts=counts, seconds=doc.get('seconds'))
    if rc != 0 and p['fail_on_node_error']:
        module.fail_json(msg='fabric update: %d failed, %d without an image'
                         % (counts.get('failed', 0), counts.get('no-image', 0)), **result)
    module.exit_json(**result)


if __name__ == '__main__':
    main()
